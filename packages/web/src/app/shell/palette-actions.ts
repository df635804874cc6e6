import type { ActionName } from '@berth/core';
import type { PaletteAction } from '../../features/search/components/command-palette.tsx';
import { paths } from '../../lib/paths.ts';
import type { ActionWhere } from '../../lib/use-action-denial.ts';
import { HOME_ITEM, RESOURCE_ITEMS, SECURITY_ITEM } from './nav-items.ts';

type DenialOf = (action: ActionName, where?: ActionWhere) => string | null;

/**
 * Why an action taken in an environment chosen later (the create flows ask for it) is denied in every
 * environment the caller sees: null as soon as one allows it. With none, the environment it needs would
 * have to be created first.
 */
function deniedEverywhere(denialOf: DenialOf, action: ActionName, environmentIds: readonly string[]) {
  if (environmentIds.length === 0) return denialOf('environment.create');
  const denials = environmentIds.map((environmentId) => denialOf(action, environmentId));
  return denials.includes(null) ? null : (denials[0] ?? null);
}

/**
 * What the ⌘K palette offers besides search (issue 38): starting the main flows, and going to each area
 * the side navigation shows this user. A flow the caller may not start is offered disabled, with core's
 * reason, as the other surfaces' buttons are (spec 3 §2).
 */
export function paletteActions(options: {
  homeEnabled: boolean;
  fullVisibility: boolean;
  denialOf: DenialOf;
  environmentIds: readonly string[];
}): PaletteAction[] {
  const { denialOf, environmentIds } = options;
  const areas = [
    ...(options.homeEnabled ? [HOME_ITEM] : []),
    ...RESOURCE_ITEMS,
    ...(options.fullVisibility ? [SECURITY_ITEM] : []),
    { label: 'Settings', to: paths.settings },
    { label: 'Support', to: paths.support },
  ];
  const createEnvironment = denialOf('environment.create');
  return [
    {
      label: 'Deploy an app',
      to: paths.deploy,
      // The deploy flow deploys into an environment of the caller's or into a new one.
      denial: createEnvironment && deniedEverywhere(denialOf, 'app.create', environmentIds),
    },
    { label: 'Create environment', to: paths.createEnvironment, denial: createEnvironment },
    {
      label: 'Create database',
      to: paths.createDatabase,
      denial: deniedEverywhere(denialOf, 'database.create', environmentIds),
    },
    ...areas.map((area) => ({ label: `Go to ${area.label}`, to: area.to })),
  ];
}
