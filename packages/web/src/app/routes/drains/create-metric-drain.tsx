import { CreateDrainPage } from './create-drain-page.tsx';

/** spec 2 §2 /metric-drains/create?environment_id. */
export function Component() {
  return <CreateDrainPage kind="metric" />;
}
