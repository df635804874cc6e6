import { z } from 'zod';

// The wire shapes of HAL+JSON (contract §1.4) as schemas: each resource's shape is declared once in core
// from these pieces. The server's serializers return the inferred types, its routes name the schemas as
// their responses (the OpenAPI documents come from them, and tests check every answer against them), and
// the console's deserializers read the same types. Objects are strict: a field the server sends is a
// field the schema declares.

/** A link: `{ "href": "<absolute URL>" }`. */
export const halLink = z.strictObject({ href: z.string() });
export type HalLink = z.infer<typeof halLink>;

type LinkShape<Required extends string, Optional extends string> = {
  [K in Required]: typeof halLink;
} & { [K in Optional]: z.ZodOptional<typeof halLink> };

/**
 * The `_links` of a resource: the relations it always has and those it has only sometimes (an absent
 * relation is left out, never `null`).
 */
export function halLinks<const Required extends string, const Optional extends string = never>(
  required: readonly Required[],
  optional: readonly Optional[] = [],
) {
  const shape: Record<string, z.ZodType> = {};
  for (const rel of required) shape[rel] = halLink;
  for (const rel of optional) shape[rel] = halLink.optional();
  return z.strictObject(shape as LinkShape<Required, Optional>);
}

/** Ids travel as strings (contract §1.5). */
export const halId = z.string();

/** A timestamp in the toISOString() layout (contract §1.8), or null where the moment has not come. */
export const isoTimestamp = z.string();
export const isoTimestampOrNull = z.string().nullable();

/** The paging fields and links of every collection (contract §1.4). */
const collectionLinks = halLinks(['self'], ['next', 'prev']);

/** A page of a collection: its items under `_embedded[key]`, with links to the pages around it. */
export function halCollection<const Key extends string, Item extends z.ZodType>(key: Key, item: Item) {
  return z.strictObject({
    _embedded: z.strictObject({ [key]: z.array(item) } as { [K in Key]: z.ZodArray<Item> }),
    _links: collectionLinks,
    current_page: z.number().int(),
    per_page: z.number().int(),
    total_count: z.number().int(),
  });
}
export type HalCollection<Key extends string, Item> = {
  _embedded: { [K in Key]: Item[] };
  _links: { self: HalLink; next?: HalLink; prev?: HalLink };
  current_page: number;
  per_page: number;
  total_count: number;
};

/** Contract §1.3: the body of every failure. */
export const apiErrorBody = z
  .strictObject({
    code: z.number().int(),
    error: z.string(),
    message: z.string(),
    exception_context: z.record(z.string(), z.unknown()),
    details: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({ id: 'Error' });
export type ApiErrorBody = z.infer<typeof apiErrorBody>;

/** An answer in plain text (a URL, a log), as a route's response entry. */
export const textAnswer = { content: { 'text/plain': { schema: z.string() } } };

/** An answer that is a file, sent as a download. */
export const fileAnswer = { content: { 'application/octet-stream': { schema: z.string() } } };

/** The empty answer of a 204. */
export const noContent = z.null().describe('No content');
