// The OpenAPI 3.1 documents each service family serves at `<family>/openapi.json` (server
// http/openapi.ts), read into what the API reference page shows: operations grouped by tag, and
// schemas as field lists with their $refs resolved against `components.schemas`.

/** The JSON Schema (2020-12) subset the server's zod schemas produce. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  title?: string;
  description?: string;
  format?: string;
  enum?: readonly unknown[];
  const?: unknown;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: readonly JsonSchema[];
  oneOf?: readonly JsonSchema[];
  allOf?: readonly JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

export interface OpenApiMediaType {
  schema?: JsonSchema;
}

export interface OpenApiResponse {
  description?: string;
  content?: Record<string, OpenApiMediaType>;
}

export interface OpenApiOperation {
  operationId?: string;
  tags?: readonly string[];
  summary?: string;
  description?: string;
  parameters?: readonly OpenApiParameter[];
  requestBody?: { required?: boolean; description?: string; content?: Record<string, OpenApiMediaType> };
  responses?: Record<string, OpenApiResponse>;
  /** `[]` means public: no token (the document's top-level `security` applies otherwise). */
  security?: readonly Record<string, readonly string[]>[];
  deprecated?: boolean;
}

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;
export type HttpMethodName = (typeof HTTP_METHODS)[number];

export type OpenApiPathItem = { parameters?: readonly OpenApiParameter[] } & {
  [M in HttpMethodName]?: OpenApiOperation;
};

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; description?: string; version: string };
  servers?: readonly { url: string; description?: string }[];
  tags?: readonly { name: string; description?: string }[];
  paths?: Record<string, OpenApiPathItem>;
  components?: { schemas?: Record<string, JsonSchema> };
  security?: readonly Record<string, readonly string[]>[];
}

/** One operation as the page lists it. */
export interface ApiOperation {
  key: string;
  method: HttpMethodName;
  path: string;
  operationId: string | null;
  tag: string;
  summary: string;
  description: string;
  deprecated: boolean;
  /** Whether the caller needs a bearer token. */
  needsToken: boolean;
  parameters: OpenApiParameter[];
  requestBody: {
    required: boolean;
    description: string;
    mediaType: string;
    schema: JsonSchema | null;
  } | null;
  responses: { status: string; description: string; mediaType: string | null; schema: JsonSchema | null }[];
}

export interface ApiTagGroup {
  tag: string;
  description: string;
  operations: ApiOperation[];
}

/** Operations without a tag are listed last under this heading. */
export const UNTAGGED = 'Other';

function firstMedia(content: Record<string, OpenApiMediaType> | undefined) {
  const entry = Object.entries(content ?? {})[0];
  return entry ? { mediaType: entry[0], schema: entry[1].schema ?? null } : null;
}

/** Every operation of a document, in the document's order; path-level parameters are merged in. */
export function listOperations(document: OpenApiDocument): ApiOperation[] {
  const globallySecured = (document.security ?? []).length > 0;
  const operations: ApiOperation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const own = operation.parameters ?? [];
      const inherited = (item.parameters ?? []).filter(
        (parameter) => !own.some((o) => o.name === parameter.name && o.in === parameter.in),
      );
      const body = operation.requestBody ? firstMedia(operation.requestBody.content) : null;
      operations.push({
        key: `${method} ${path}`,
        method,
        path,
        operationId: operation.operationId ?? null,
        tag: operation.tags?.[0] ?? UNTAGGED,
        summary: operation.summary ?? '',
        description: operation.description ?? '',
        deprecated: operation.deprecated ?? false,
        needsToken: operation.security ? operation.security.length > 0 : globallySecured,
        parameters: [...inherited, ...own],
        requestBody: operation.requestBody
          ? {
              required: operation.requestBody.required ?? false,
              description: operation.requestBody.description ?? '',
              mediaType: body?.mediaType ?? 'application/json',
              schema: body?.schema ?? null,
            }
          : null,
        responses: Object.entries(operation.responses ?? {})
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([status, response]) => {
            const media = firstMedia(response.content);
            return {
              status,
              // Fastify's placeholder for an undescribed answer reads as none.
              description: response.description === 'Default Response' ? '' : (response.description ?? ''),
              mediaType: media?.mediaType ?? null,
              schema: media?.schema ?? null,
            };
          }),
      });
    }
  }
  return operations;
}

/** Operations grouped by their first tag: the document's declared tags first, then by name, untagged last. */
export function groupByTag(document: OpenApiDocument, operations: readonly ApiOperation[]): ApiTagGroup[] {
  const declared = document.tags ?? [];
  const groups = new Map<string, ApiOperation[]>();
  for (const operation of operations) {
    groups.set(operation.tag, [...(groups.get(operation.tag) ?? []), operation]);
  }
  const rank = (tag: string) => {
    if (tag === UNTAGGED) return Number.MAX_SAFE_INTEGER;
    const index = declared.findIndex((entry) => entry.name === tag);
    return index === -1 ? declared.length : index;
  };
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([tag, list]) => ({
      tag,
      description: declared.find((entry) => entry.name === tag)?.description ?? '',
      operations: list,
    }));
}

/** Whether an operation matches the filter box: its method, path, tag, summary or operation id. */
export function matchesFilter(operation: ApiOperation, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (!needle) return true;
  const haystack = [
    `${operation.method} ${operation.path}`,
    operation.tag,
    operation.summary,
    operation.operationId ?? '',
  ]
    .join('\n')
    .toLowerCase();
  return needle.split(/\s+/).every((word) => haystack.includes(word));
}

// Schemas -----------------------------------------------------------------------------------------

const REF_PREFIX = '#/components/schemas/';

export function refName(schema: JsonSchema): string | null {
  return schema.$ref?.startsWith(REF_PREFIX)
    ? decodeURIComponent(schema.$ref.slice(REF_PREFIX.length))
    : null;
}

/** The schema a $ref names (one hop; a missing component reads as an empty schema). */
export function resolveRef(document: OpenApiDocument, schema: JsonSchema): JsonSchema {
  const name = refName(schema);
  if (name === null) return schema;
  return document.components?.schemas?.[name] ?? {};
}

function isNullSchema(schema: JsonSchema): boolean {
  return (
    schema.type === 'null' ||
    (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === 'null')
  );
}

/** A schema without its `null` alternative, and whether it had one (`anyOf [X, null]`, `type: [X, 'null']`). */
export function withoutNull(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const variants = schema[key];
    if (variants?.some(isNullSchema)) {
      const rest = variants.filter((variant) => !isNullSchema(variant));
      const { [key]: _dropped, ...base } = schema;
      const only = rest.length === 1 && rest[0] ? rest[0] : null;
      return {
        schema: only
          ? { ...base, ...only, description: base.description ?? only.description }
          : { ...base, [key]: rest },
        nullable: true,
      };
    }
  }
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const rest = schema.type.filter((type) => type !== 'null');
    return { schema: { ...schema, type: rest.length === 1 ? rest[0] : rest }, nullable: true };
  }
  return { schema, nullable: false };
}

/** What a schema renders as: a type label, and where it has fields, those fields. */
export type SchemaView =
  | { kind: 'object'; label: string; fields: FieldView[]; extra: SchemaView | null }
  | { kind: 'array'; label: string; items: SchemaView }
  | { kind: 'union'; label: string; variants: SchemaView[] }
  | { kind: 'scalar'; label: string; detail: string }
  /** A component already being expanded higher up: named, not expanded again. */
  | { kind: 'recursive'; label: string };

export interface FieldView {
  name: string;
  required: boolean;
  nullable: boolean;
  description: string;
  view: SchemaView;
}

function literal(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : String(value);
}

function scalarDetail(schema: JsonSchema): string {
  const parts: string[] = [];
  if (schema.enum) parts.push(`one of ${schema.enum.map(literal).join(', ')}`);
  if (schema.const !== undefined) parts.push(`always ${literal(schema.const)}`);
  if (schema.format) parts.push(schema.format);
  // zod's int() carries the safe-integer bounds: they say nothing a reader needs.
  if (schema.minimum !== undefined && schema.minimum > Number.MIN_SAFE_INTEGER)
    parts.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER)
    parts.push(`≤ ${schema.maximum}`);
  if (schema.minLength !== undefined) parts.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) parts.push(`max length ${schema.maxLength}`);
  if (schema.pattern) parts.push(`matches ${schema.pattern}`);
  if (schema.default !== undefined) parts.push(`default ${literal(schema.default)}`);
  return parts.join(' · ');
}

function typeLabel(schema: JsonSchema): string {
  if (schema.const !== undefined) return typeof schema.const;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (schema.type) return schema.type;
  if (schema.enum) return 'enum';
  return 'any';
}

/** A readable view of a schema, following $refs into `components.schemas` (cycles are named, not expanded). */
export function viewSchema(
  document: OpenApiDocument,
  schema: JsonSchema,
  expanding: ReadonlySet<string> = new Set(),
): SchemaView {
  const name = refName(schema);
  if (name !== null) {
    if (expanding.has(name)) return { kind: 'recursive', label: name };
    const view = viewSchema(document, resolveRef(document, schema), new Set([...expanding, name]));
    return { ...view, label: name };
  }
  if (schema.allOf && schema.allOf.length > 0) {
    // zod emits allOf for intersections: show the merged fields.
    const parts = schema.allOf.map((part) => resolveRef(document, part));
    const merged: JsonSchema = {
      type: 'object',
      properties: Object.assign({}, ...parts.map((part) => part.properties ?? {}), schema.properties ?? {}),
      required: [...parts.flatMap((part) => part.required ?? []), ...(schema.required ?? [])],
    };
    return viewSchema(document, merged, expanding);
  }
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    const { schema: inner, nullable } = withoutNull(schema);
    if (nullable && !inner.anyOf && !inner.oneOf) return viewSchema(document, inner, expanding);
    const views = (inner.anyOf ?? inner.oneOf ?? []).map((variant) =>
      viewSchema(document, variant, expanding),
    );
    return { kind: 'union', label: views.map((view) => view.label).join(' | '), variants: views };
  }
  const type = Array.isArray(schema.type) ? withoutNull(schema).schema.type : schema.type;
  if (type === 'array') {
    const items = viewSchema(document, schema.items ?? {}, expanding);
    return { kind: 'array', label: `${items.label}[]`, items };
  }
  if (type === 'object' || schema.properties) {
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties ?? {}).map(([field, raw]) => {
      const { schema: inner, nullable } = withoutNull(raw);
      return {
        name: field,
        required: required.has(field),
        nullable,
        description: inner.description ?? raw.description ?? '',
        view: viewSchema(document, inner, expanding),
      };
    });
    const extra =
      typeof schema.additionalProperties === 'object'
        ? viewSchema(document, schema.additionalProperties, expanding)
        : null;
    // A record (`z.record`) has no named fields, only values of one type.
    const label = fields.length === 0 && extra ? `map of ${extra.label}` : 'object';
    return { kind: 'object', label, fields, extra };
  }
  return { kind: 'scalar', label: typeLabel(schema), detail: scalarDetail(schema) };
}

/** The fields a view can expand to show (objects, arrays of objects), or null for a leaf. */
export function expandable(view: SchemaView): Extract<SchemaView, { kind: 'object' }> | null {
  // A map of plain values says all in its label; only named fields or nested values need opening.
  if (view.kind === 'object')
    return view.fields.length > 0 || (view.extra && expandable(view.extra)) ? view : null;
  if (view.kind === 'array') return expandable(view.items);
  return null;
}
