// The commerce service from a web page, through its client package (twinspec-commerce-client): plain DOM, no
// framework. It reads where the API is from its own URL: index.html?api=http://127.0.0.1:3000&token=<JWT>
// (&limit=10 for the page size, &transport=sse for subscriptions over Server-Sent Events instead of WebSocket).
//   - customers, page by page: "Next page" follows the Link header the server sent (api.nextPage);
//   - one customer edited with If-Match: the ETag read with it guards against lost updates, so a copy that someone
//     else changed in the meantime is refused with 412, which the page shows;
//   - that customer's orders, live: a GraphQL subscription (OrderStatusChanged) hears every status change, whoever
//     makes it (a REST PATCH /orders/{id}, a GraphQL mutation, another instance).
// Built by build.ts (esbuild); test/examples/web.test.ts runs it in Chromium against a real server. (A token in the
// URL keeps the example short; a real page would get it from its sign-in, as URLs end up in histories and logs.)
import { createGraphqlClient, createRestClient, nextUrl, OrderStatusChangedDocument } from "twinspec-commerce-client";

const params = new URLSearchParams(location.search);
const apiUrl = params.get("api") ?? location.origin;
const token = params.get("token") ?? undefined;
const limit = Number(params.get("limit") ?? 10);
const transport = params.get("transport") === "sse" ? "sse" : "ws";

const api = createRestClient({ baseUrl: apiUrl, token });
const graphql = createGraphqlClient({ url: `${apiUrl}/graphql`, token, transport });

/** The element with this data-testid (every one the page uses is in index.html). */
function element<E extends HTMLElement = HTMLElement>(testId: string): E {
  const found = document.querySelector<E>(`[data-testid="${testId}"]`);
  if (!found) throw new Error(`index.html has no [data-testid="${testId}"]`);
  return found;
}

const showError = (error: unknown) => {
  element("error").textContent = String(error instanceof Error ? error.message : error);
  console.error(error);
};

// ---- Customers, page by page ---------------------------------------------------------------------------------

type CustomerPage = Awaited<ReturnType<typeof api.listCustomers>>;
let page: CustomerPage;
let pageNumber = 1;

function showPage(outcome: CustomerPage) {
  if (outcome.status !== 200) throw new Error(`listing customers answered ${outcome.status} ${outcome.body.title}`);
  page = outcome;
  element("page-number").textContent = `page ${pageNumber}`;
  element("customers").replaceChildren(
    ...outcome.body.items.map((customer) => {
      const item = document.createElement("li");
      item.dataset.testid = "customer";
      item.dataset.id = customer.customerId;
      const open = document.createElement("button");
      open.type = "button";
      open.textContent = `${customer.firstName} ${customer.lastName}`;
      open.addEventListener("click", () => void openCustomer(customer.customerId).catch(showError));
      item.append(open);
      return item;
    }),
  );
  // The server announces the next page in a Link header (rel="next"); the last page has none.
  element<HTMLButtonElement>("next-page").disabled = nextUrl(outcome) === undefined;
}

async function showNextPage() {
  try {
    const next = await api.nextPage(page);
    if (!next) return;
    pageNumber++;
    showPage(next);
  } catch (error) {
    showError(error);
  }
}

element("next-page").addEventListener("click", () => void showNextPage());

// ---- One customer, edited with If-Match ----------------------------------------------------------------------

let editing: { customerId: string; etag: string } | undefined;
const form = element<HTMLFormElement>("edit-form");
const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement;

function say(status: number, text: string) {
  const message = element("edit-status");
  message.dataset.status = String(status);
  message.textContent = `${status}: ${text}`;
}

async function openCustomer(customerId: string) {
  const read = await api.getCustomer({ path: { customerId } });
  if (read.status !== 200) return say(read.status, "could not read this customer");
  const customer = read.body;
  // The ETag names this version of the customer: the save below only applies if it is still the current one.
  editing = { customerId, etag: read.headers.ETag };
  element("editing").textContent = `${customer.firstName} ${customer.lastName}`;
  field("firstName").value = customer.firstName;
  field("lastName").value = customer.lastName;
  field("email").value = customer.email;
  element("edit-status").textContent = "";
  element("editor").hidden = false;
  watchOrders(customerId, `${customer.firstName} ${customer.lastName}`).catch(showError);
}

async function save() {
  if (!editing) return;
  try {
    const { customerId, etag } = editing;
    const body = {
      firstName: field("firstName").value,
      lastName: field("lastName").value,
      email: field("email").value,
    };
    // A JSON merge patch (the SDK sends application/merge-patch+json), applied only to the version we read.
    const saved = await api.patchCustomer({ path: { customerId }, headers: { "If-Match": etag }, body });
    switch (saved.status) {
      case 200:
        editing = { customerId, etag: saved.headers.ETag };
        say(200, `saved ${saved.body.firstName} ${saved.body.lastName}`);
        break;
      case 412:
        // Someone else changed the customer since we read it: saving would have overwritten their change.
        say(
          412,
          `${saved.body.title}: this customer was changed by someone else since you opened it. Open it again to see their version, then edit that.`,
        );
        break;
      default:
        say(saved.status, saved.body ? saved.body.title : "not saved");
    }
  } catch (error) {
    showError(error);
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  void save();
});

// ---- The customer's orders, live (GraphQL subscription) ------------------------------------------------------

let subscription: AsyncIterator<unknown> | undefined;

async function watchOrders(customerId: string, name: string) {
  await subscription?.return?.(); // the customer shown before: stop listening to theirs
  const events = graphql.subscribe(OrderStatusChangedDocument, { customerId });
  subscription = events;
  element("orders").hidden = false;
  element("live-state").textContent =
    `Listening to the orders of ${name} (over ${transport === "sse" ? "Server-Sent Events" : "WebSocket"})`;
  const list = element("order-events");
  list.replaceChildren();
  try {
    for await (const { data, errors } of events) {
      if (errors?.length) showError(errors.map((e) => e.message).join("; "));
      const change = data?.orderStatusChanged;
      if (!change) continue;
      const item = document.createElement("li");
      item.dataset.testid = "order-event";
      item.dataset.orderId = change.orderId;
      item.dataset.status = change.status;
      item.textContent = `${new Date(change.sentAt).toLocaleTimeString()}: order ${change.orderId} is now ${change.status}`;
      list.append(item);
    }
  } catch (error) {
    if (subscription === events) showError(error);
  }
}

api.listCustomers({ query: { limit } }).then(showPage).catch(showError);
