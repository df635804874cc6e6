import { StaticTable } from '../../../components/ui/static-table.tsx';

/** The configuration variables at a deployment, as a read-only table. */
export function ConfigurationTable({ env }: { env: Record<string, string | null> }) {
  const keys = Object.keys(env).sort();
  return (
    <div className="card">
      <StaticTable caption="Configuration" className="env-table" columns={['Key', 'Value']}>
        {keys.length === 0 ? (
          <tr>
            <td colSpan={2} className="table-empty">
              No data found
            </td>
          </tr>
        ) : (
          keys.map((key) => (
            <tr key={key}>
              <td>
                <code>{key}</code>
              </td>
              <td>
                <code>{env[key] ?? ''}</code>
              </td>
            </tr>
          ))
        )}
      </StaticTable>
    </div>
  );
}
