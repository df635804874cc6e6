/** The configuration variables at a deployment, as a read-only table. */
export function ConfigurationTable({ env }: { env: Record<string, string | null> }) {
  const keys = Object.keys(env).sort();
  return (
    <div className="card">
      <div className="table-wrap">
        <table className="table env-table">
          <caption className="visually-hidden">Configuration</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </table>
      </div>
    </div>
  );
}
