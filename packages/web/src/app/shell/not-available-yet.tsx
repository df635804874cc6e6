import { EmptyState } from '../../components/ui/empty-state.tsx';
import { NOT_AVAILABLE_YET } from '../feature-flags.ts';

/**
 * A tab whose feature this installation does not have: said plainly, so it never reads as an empty
 * list of a working feature. `description` names the feature.
 */
export function NotAvailableYet({ description }: { description: string }) {
  return <EmptyState title={NOT_AVAILABLE_YET} description={description} />;
}
