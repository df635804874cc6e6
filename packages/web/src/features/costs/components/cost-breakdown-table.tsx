import { type CostBreakdown, costShare, formatUsd } from '@berth/core';
import { StaticTable } from '../../../components/ui/static-table.tsx';

const COLUMNS = [
  'Resource type',
  { label: 'Count', className: 'numeric' },
  { label: 'Est. Monthly Cost', className: 'numeric' },
  { label: 'Share', className: 'numeric' },
] as const;

/**
 * Issue 41: the organization's estimated monthly cost by resource type (core's costBreakdown). A few
 * fixed rows: the kit's static table, not the list table (whose search and sort live in the URL).
 */
export function CostBreakdownTable({ breakdown }: { breakdown: CostBreakdown }) {
  return (
    <StaticTable caption="Costs by resource type" columns={COLUMNS}>
      {breakdown.rows.map((row) => (
        <tr key={row.type}>
          <td>{row.label}</td>
          <td className="numeric">{row.count ?? '–'}</td>
          <td className="numeric">{formatUsd(row.monthly)}</td>
          <td className="numeric">{costShare(row.monthly, breakdown.total)}</td>
        </tr>
      ))}
      <tr>
        <td>
          <strong>Total</strong>
        </td>
        <td />
        <td className="numeric">
          <strong>{formatUsd(breakdown.total)}</strong>
        </td>
        <td className="numeric">{costShare(breakdown.total, breakdown.total)}</td>
      </tr>
    </StaticTable>
  );
}
