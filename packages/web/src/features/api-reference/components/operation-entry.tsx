import { useState } from 'react';
import { StaticTable } from '../../../components/ui/static-table.tsx';
import type { ApiOperation, OpenApiDocument } from '../openapi.ts';
import { resolveRef, viewSchema, withoutNull } from '../openapi.ts';
import { Prose, SchemaBlock } from './schema-view.tsx';

function statusClass(status: string): string {
  if (status.startsWith('2')) return 'api-status api-status-success';
  if (status.startsWith('4') || status.startsWith('5')) return 'api-status api-status-error';
  return 'api-status';
}

function Parameters({ document, operation }: { document: OpenApiDocument; operation: ApiOperation }) {
  if (operation.parameters.length === 0) return null;
  return (
    <section className="api-op-part" aria-label="Parameters">
      <h4 className="api-op-part-title">Parameters</h4>
      <StaticTable className="api-params" columns={['Name', 'In', 'Type', 'Description']}>
        {operation.parameters.map((parameter) => {
          const { schema, nullable } = withoutNull(parameter.schema ?? {});
          const view = viewSchema(document, schema);
          return (
            <tr key={`${parameter.in} ${parameter.name}`}>
              <td>
                <code className="schema-field-name">{parameter.name}</code>{' '}
                {parameter.required ? (
                  <span className="schema-flag schema-flag-required">required</span>
                ) : null}
              </td>
              <td>{parameter.in}</td>
              <td>
                <span className="schema-type">{view.label}</span>
                {nullable ? (
                  <>
                    {' '}
                    <span className="schema-flag">nullable</span>
                  </>
                ) : null}
                {view.kind === 'scalar' && view.detail ? (
                  <>
                    {' '}
                    <span className="schema-detail">{view.detail}</span>
                  </>
                ) : null}
              </td>
              <td>
                <Prose text={parameter.description ?? schema.description ?? ''} />
              </td>
            </tr>
          );
        })}
      </StaticTable>
    </section>
  );
}

/** One operation: its line (method, path, summary, token), and on opening its parameters, body and answers. */
export function OperationEntry({
  document,
  operation,
}: {
  document: OpenApiDocument;
  operation: ApiOperation;
}) {
  const name = `${operation.method.toUpperCase()} ${operation.path}`;
  // A family has dozens of operations with large schemas: the details are built only once opened.
  const [open, setOpen] = useState(false);
  return (
    <article className="api-op" aria-label={name}>
      <details onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary className="api-op-summary">
          <span className={`api-method api-method-${operation.method}`}>
            {operation.method.toUpperCase()}
          </span>
          <code className="api-path">{operation.path}</code>
          <span className="api-op-title">
            <Prose text={operation.summary} />
          </span>
          {operation.deprecated ? <span className="badge badge-warning">Deprecated</span> : null}
          {operation.needsToken ? (
            <span className="badge" title="Send a bearer token in the Authorization header">
              Token required
            </span>
          ) : (
            <span className="badge badge-primary" title="No token needed">
              Public
            </span>
          )}
        </summary>
        {open ? <OperationDetails document={document} operation={operation} /> : null}
      </details>
    </article>
  );
}

function OperationDetails({ document, operation }: { document: OpenApiDocument; operation: ApiOperation }) {
  return (
    <div className="api-op-body">
      {operation.description && operation.description !== operation.summary ? (
        <p className="api-op-description">
          <Prose text={operation.description} />
        </p>
      ) : null}
      {operation.operationId ? (
        <p className="schema-detail">
          Operation id <code>{operation.operationId}</code>
        </p>
      ) : null}
      <Parameters document={document} operation={operation} />
      {operation.requestBody ? (
        <section className="api-op-part" aria-label="Request body">
          <h4 className="api-op-part-title">
            Request body{' '}
            <span className="schema-detail">
              {operation.requestBody.mediaType}
              {operation.requestBody.required ? ' · required' : ' · optional'}
            </span>
          </h4>
          {operation.requestBody.schema ? (
            <SchemaBlock
              label="Request body schema"
              view={viewSchema(document, operation.requestBody.schema)}
              description={
                operation.requestBody.description ||
                resolveRef(document, operation.requestBody.schema).description
              }
            />
          ) : null}
        </section>
      ) : null}
      <section className="api-op-part" aria-label="Responses">
        <h4 className="api-op-part-title">Responses</h4>
        <ul className="api-responses">
          {operation.responses.map((response) => (
            <li key={response.status} className="api-response">
              <div className="api-response-head">
                <span className={statusClass(response.status)}>{response.status}</span>
                <span>{response.description}</span>
                {response.mediaType ? <span className="schema-detail">{response.mediaType}</span> : null}
              </div>
              {response.schema ? (
                <SchemaBlock
                  label={`Response ${response.status} schema`}
                  view={viewSchema(document, response.schema)}
                  description={resolveRef(document, response.schema).description}
                />
              ) : (
                <p className="schema-detail">No body</p>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
