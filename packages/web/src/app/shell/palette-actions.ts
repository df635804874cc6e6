import type { PaletteAction } from '../../features/search/components/command-palette.tsx';
import { paths } from '../../lib/paths.ts';
import { HOME_ITEM, RESOURCE_ITEMS, SECURITY_ITEM } from './nav-items.ts';

/**
 * What the ⌘K palette offers besides search (issue 38): starting the main flows, and going to each area
 * the side navigation shows this user.
 */
export function paletteActions(options: { homeEnabled: boolean; fullVisibility: boolean }): PaletteAction[] {
  const areas = [
    ...(options.homeEnabled ? [HOME_ITEM] : []),
    ...RESOURCE_ITEMS,
    ...(options.fullVisibility ? [SECURITY_ITEM] : []),
    { label: 'Settings', to: paths.settings },
    { label: 'Support', to: paths.support },
  ];
  return [
    { label: 'Deploy an app', to: paths.deploy },
    { label: 'Create environment', to: paths.createEnvironment },
    { label: 'Create database', to: paths.createDatabase },
    ...areas.map((area) => ({ label: `Go to ${area.label}`, to: area.to })),
  ];
}
