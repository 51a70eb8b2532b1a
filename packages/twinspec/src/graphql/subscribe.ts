// graphql-js's subscribe, with event ids: each payload's extensions.eventId is the id of the event it was made of
// (the source stream's lastEventId, streams.ts), which a client resumes after. A source stream that ends with an
// error (its reader fell behind, the log could not be read) ends the subscription with that error as one coded
// payload, rather than as a transport failure.
import { createSourceEventStream, execute, GraphQLError, type ExecutionArgs, type ExecutionResult } from "graphql";
import type { ErrorContext } from "./errors.js";
import { toGraphqlError } from "./errors.js";
import { EventsOverflowError } from "./streams.js";

type Results = AsyncGenerator<ExecutionResult, void, void>;

export async function subscribeWithIds(args: ExecutionArgs): Promise<Results | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source;
  const events = source as AsyncGenerator<unknown> & { lastEventId?: string };
  let finished = false;
  const end = async () => {
    finished = true;
    await events.return?.(undefined);
  };
  const results: Results = {
    async next() {
      if (finished) return { done: true, value: undefined };
      let step: IteratorResult<unknown>;
      try {
        step = await events.next();
      } catch (error) {
        await end();
        return { done: false, value: { errors: [ended(error, args.contextValue as ErrorContext)] } };
      }
      if (step.done) {
        finished = true;
        return { done: true, value: undefined };
      }
      const result = await execute({ ...args, rootValue: step.value });
      const eventId = events.lastEventId;
      return {
        done: false,
        value: eventId === undefined ? result : { ...result, extensions: { ...result.extensions, eventId } },
      };
    },
    async return() {
      await end();
      return { done: true, value: undefined };
    },
    async throw(error) {
      await end();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
  return results;
}

function ended(error: unknown, context: ErrorContext): GraphQLError {
  if (error instanceof EventsOverflowError)
    return new GraphQLError(error.message, { extensions: { code: error.code, lastEventId: error.lastEventId } });
  return toGraphqlError(error, context);
}
