// A customer's avatar: one image, stored with its media type. Which media types and sizes an upload may have is
// openapi.yaml's (the runtime checks the part's Content-Type and size); what a spec cannot say is here: the bytes
// must really be an image of the type they claim to be. Reached through the customers service (services.customers.avatars).
import type { Kysely, Selectable } from "kysely";
import type { Database } from "twinspec/schema";
import {
  transaction,
  NotFoundError,
  PreconditionError,
  UnprocessableError,
  now,
  holds,
  type Preconditions,
} from "twinspec";
import { requireLiveCustomer } from "./live-customer.js";
// Its rows are generated/database.ts's CustomerAvatarsTable (from src/migrations): media_type, size and content are
// null once the avatar is removed; the row stays so versions keep counting up.
import type { CustomerAvatarsTable } from "../../generated/database.js";
import type * as Spec from "../../generated/models.js";

export type ImageType = Spec.Avatar["mediaType"];

/** openapi.yaml's Avatar, with its bytes and version. */
export interface Avatar extends Spec.Avatar {
  content: Buffer;
  version: number;
}

/** An image as uploaded: the media type its sender declares, and its bytes. */
export interface ImageUpload {
  mediaType: string;
  content: Buffer;
}

/** The signatures ("magic bytes") each image type starts with; a null byte is "any byte" (WebP's RIFF size). */
const SIGNATURES: [ImageType, string, (number | null)[]][] = [
  ["image/png", "PNG", [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ["image/jpeg", "JPEG", [0xff, 0xd8, 0xff]],
  ["image/webp", "WebP", [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50]],
];

/** The image type `bytes` begin like, if any. */
export function sniffImage(bytes: Buffer): ImageType | undefined {
  return SIGNATURES.find(
    ([, , signature]) => bytes.length >= signature.length && signature.every((b, i) => b === null || bytes[i] === b),
  )?.[0];
}

const nameOf = (type: ImageType) => SIGNATURES.find(([t]) => t === type)![1];

/** Refuses (422) bytes that are not an image of the declared media type, saying what they are and what to send. */
export function checkImage({ mediaType, content }: ImageUpload, pointer = "/image"): ImageType {
  const found = sniffImage(content);
  if (found === mediaType) return found;
  const message = found
    ? `is declared ${mediaType} but its bytes are a ${nameOf(found)} image: declare it as ${found} (the part's Content-Type), or send a file that is ${mediaType}`
    : `is declared ${mediaType} but its bytes are not a ${SIGNATURES.map(([, name]) => name)
        .join(", ")
        .replace(
          /, (?=[^,]*$)/,
          " or ",
        )} image (they do not start with any of their signatures): send the image file itself`;
  throw new UnprocessableError([{ pointer, message }]);
}

type Row = Selectable<CustomerAvatarsTable>;

/** The avatar a row holds, if it holds one. */
const avatarOf = (row: Row | undefined): Avatar | undefined =>
  row && row.content !== null
    ? {
        customerId: row.customer_id,
        mediaType: row.media_type as ImageType,
        size: Number(row.size),
        content: Buffer.from(row.content),
        version: row.version,
        updatedAt: row.updated_at,
      }
    : undefined;

const WHAT = "avatar of customer";

export class CustomerAvatars {
  constructor(private readonly db: Kysely<Database>) {}

  private row(db: Kysely<Database>, customerId: string) {
    return db.selectFrom("customer_avatars").selectAll().where("customer_id", "=", customerId).executeTakeFirst();
  }

  /** The customer's avatar; 404 when it has none, and the customer's own 404/410/301. */
  async get(customerId: string): Promise<Avatar> {
    await requireLiveCustomer(this.db, customerId);
    const avatar = avatarOf(await this.row(this.db, customerId));
    if (!avatar) throw new NotFoundError(WHAT, customerId);
    return avatar;
  }

  /** Stores the image as the customer's avatar (created: it had none); the same image again changes nothing. */
  async put(
    customerId: string,
    image: ImageUpload,
    pre?: Preconditions,
  ): Promise<{ avatar: Avatar; created: boolean }> {
    const mediaType = checkImage(image);
    return transaction(this.db, async (trx) => {
      // The customer row, locked: avatar writes for one customer run one at a time, and a delete waits for them.
      await requireLiveCustomer(trx, customerId, "update");
      const row = await this.row(trx, customerId);
      const current = avatarOf(row);
      if (!holds(pre, current)) throw new PreconditionError(WHAT, customerId);
      if (current && current.mediaType === mediaType && current.content.equals(image.content))
        return { avatar: current, created: false };
      const avatar: Avatar = {
        customerId,
        mediaType,
        size: image.content.length,
        content: image.content,
        version: (row?.version ?? 0) + 1,
        updatedAt: now(),
      };
      const values = {
        media_type: avatar.mediaType,
        size: avatar.size,
        content: avatar.content,
        version: avatar.version,
        updated_at: avatar.updatedAt,
      };
      if (row) await trx.updateTable("customer_avatars").set(values).where("customer_id", "=", customerId).execute();
      else
        await trx
          .insertInto("customer_avatars")
          .values({ customer_id: customerId, ...values })
          .execute();
      return { avatar, created: !current };
    });
  }

  /** Removes the avatar; the customer stays. */
  async delete(customerId: string, pre?: Preconditions): Promise<void> {
    await transaction(this.db, async (trx) => {
      await requireLiveCustomer(trx, customerId, "update");
      const current = avatarOf(await this.row(trx, customerId));
      if (!current) throw new NotFoundError(WHAT, customerId);
      if (!holds(pre, current)) throw new PreconditionError(WHAT, customerId);
      await trx
        .updateTable("customer_avatars")
        .set({ media_type: null, size: null, content: null, version: current.version + 1, updated_at: now() })
        .where("customer_id", "=", customerId)
        .execute();
    });
  }
}

/** Inside the transaction that deletes the customer (its row locked): its avatar goes with it, row and all. */
export async function deleteAvatarOf(trx: Kysely<Database>, customerId: string): Promise<void> {
  await trx.deleteFrom("customer_avatars").where("customer_id", "=", customerId).execute();
}
