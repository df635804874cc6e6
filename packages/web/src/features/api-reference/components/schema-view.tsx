import { type ReactNode, useState } from 'react';
import { expandable, type FieldView, type SchemaView } from '../openapi.ts';

/** Nested fields behind a disclosure, built only once opened (schemas nest deep and repeat). */
function Disclosure({ summary, children }: { summary: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="schema-nested" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{summary}</summary>
      {open ? children : null}
    </details>
  );
}

function detailText(view: SchemaView): string {
  if (view.kind === 'scalar') return view.detail;
  if (view.kind === 'recursive') return `see ${view.label} above`;
  return '';
}

function Detail({ view }: { view: SchemaView }) {
  const text = detailText(view);
  return text ? <span className="schema-detail">{text}</span> : null;
}

/** A description with its `code` spans (the server's summaries and descriptions use backticks). */
export function Prose({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, index) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one string, in order
        index % 2 === 1 ? <code key={index}>{part}</code> : part,
      )}
    </>
  );
}

/** Parts of a line with a space between them, so the line also reads well as text (screen readers, copy). */
function spaced(parts: readonly ReactNode[]): ReactNode[] {
  return parts.filter(Boolean).flatMap((part, index) => (index === 0 ? [part] : [' ', part]));
}

function FieldRow({ field }: { field: FieldView }) {
  const nested = expandable(field.view);
  return (
    <li className="schema-field">
      <div className="schema-field-head">
        {spaced([
          <code key="name" className="schema-field-name">
            {field.name}
          </code>,
          <span key="type" className="schema-type">
            {field.view.label}
          </span>,
          <span
            key="required"
            className={field.required ? 'schema-flag schema-flag-required' : 'schema-flag'}
          >
            {field.required ? 'required' : 'optional'}
          </span>,
          field.nullable ? (
            <span key="nullable" className="schema-flag">
              nullable
            </span>
          ) : null,
          detailText(field.view) ? <Detail key="detail" view={field.view} /> : null,
        ])}
      </div>
      {field.description ? (
        <p className="schema-description">
          <Prose text={field.description} />
        </p>
      ) : null}
      {nested ? (
        <Disclosure
          summary={
            nested.fields.length > 0
              ? `${nested.fields.length} ${nested.fields.length === 1 ? 'field' : 'fields'} of ${field.name}`
              : `Values of ${field.name}`
          }
        >
          <ObjectFields view={nested} />
        </Disclosure>
      ) : null}
      {field.view.kind === 'union' ? <UnionVariants view={field.view} /> : null}
    </li>
  );
}

function ObjectFields({ view }: { view: Extract<SchemaView, { kind: 'object' }> }) {
  return (
    <>
      {view.fields.length > 0 ? (
        <ul className="schema-fields">
          {view.fields.map((field) => (
            <FieldRow key={field.name} field={field} />
          ))}
        </ul>
      ) : null}
      {view.extra && view.fields.length > 0 ? (
        <p className="schema-extra">
          <span className="schema-detail">Other keys:</span>{' '}
          <span className="schema-type">{view.extra.label}</span>
        </p>
      ) : null}
      {view.extra && expandable(view.extra) ? <SchemaBody view={view.extra} /> : null}
    </>
  );
}

function UnionVariants({ view }: { view: Extract<SchemaView, { kind: 'union' }> }) {
  const nested = view.variants.filter((variant) => expandable(variant));
  if (nested.length === 0) return null;
  return (
    <div className="schema-union">
      <span className="schema-detail">One of:</span>
      {nested.map((variant, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: variants have no identity beyond their place
        <Disclosure key={index} summary={variant.label}>
          <SchemaBody view={variant} />
        </Disclosure>
      ))}
    </div>
  );
}

function SchemaBody({ view }: { view: SchemaView }) {
  const object = expandable(view);
  if (object) return <ObjectFields view={object} />;
  if (view.kind === 'union') return <UnionVariants view={view} />;
  return null;
}

/** A schema as a compact field list: names, types, required or optional, nullable, nested fields on demand. */
export function SchemaBlock({
  view,
  label,
  description,
}: {
  view: SchemaView;
  label: string;
  description?: string;
}) {
  return (
    <section className="schema-block" aria-label={label}>
      <div className="schema-block-head">
        <span className="schema-type">{view.label}</span>
        <Detail view={view} />
      </div>
      {description ? (
        <p className="schema-description">
          <Prose text={description} />
        </p>
      ) : null}
      <SchemaBody view={view} />
    </section>
  );
}
