import './resource-page.css';

/** The row under a table that sums a column (spec 2 §2: the total estimated monthly cost row). */
export function TotalRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="table-total" role="status" aria-label={label}>
      <span>{label}</span>
      <span>{value}</span>
    </div>
  );
}
