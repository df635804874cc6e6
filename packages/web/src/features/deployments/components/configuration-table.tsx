import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { StaticTable } from '../../../components/ui/static-table.tsx';

/**
 * The configuration variables at a deployment, as a read-only table. As on the app's Configuration tab
 * (issue 41), each value is masked until revealed on its own, and a sensitive one is never shown.
 */
export function ConfigurationTable({
  env,
  sensitiveKeys = [],
}: {
  env: Record<string, string | null>;
  sensitiveKeys?: readonly string[];
}) {
  const keys = Object.keys(env).sort();
  const sensitive = new Set(sensitiveKeys);
  const [revealed, setRevealed] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setRevealed((now) => {
      const next = new Set(now);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  return (
    <div className="card">
      <StaticTable
        caption="Configuration"
        className="env-table"
        columns={['Key', 'Value', { label: 'Actions', hidden: true }]}
      >
        {keys.length === 0 ? (
          <tr>
            <td colSpan={3} className="table-empty">
              No data found
            </td>
          </tr>
        ) : (
          keys.map((key) => {
            const locked = sensitive.has(key);
            const shown = !locked && revealed.has(key);
            return (
              <tr key={key}>
                <td>
                  <code>{key}</code>
                </td>
                <td>
                  {shown ? (
                    <code>{env[key] ?? ''}</code>
                  ) : locked ? (
                    <span className="env-locked">Sensitive: hidden</span>
                  ) : (
                    <>
                      <span aria-hidden="true">••••••••</span>
                      <span className="visually-hidden">hidden</span>
                    </>
                  )}
                </td>
                <td>
                  {locked ? null : (
                    <Button variant="ghost" size="sm" aria-pressed={shown} onClick={() => toggle(key)}>
                      {shown ? `Hide ${key}` : `Reveal ${key}`}
                    </Button>
                  )}
                </td>
              </tr>
            );
          })
        )}
      </StaticTable>
    </div>
  );
}
