import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRouteModules } from '../build/route-preloads.ts';
import { staticGraph } from './module-graph.ts';

// Issue 37: the billing screens load with their own pages. The login page stays as small as it was, and
// Stripe.js (spec 1 §7) is reachable from the payment page alone.
const web = path.resolve(import.meta.dirname, '..');
const src = (file: string) => path.join(web, 'src', file);
const relative = (files: Iterable<string>) => [...files].map((file) => path.relative(web, file));
const routes = readRouteModules(path.join(web, 'src/app/router.tsx'), path.join(web, 'src/lib/paths.ts'), [
  path.join(web, 'src/app/list-pages.ts'),
]);
const modulesOf = (pattern: string) =>
  relative(routes.find((route) => route.pattern === pattern)?.modules ?? []);

const BILLING_MODULE = /features\/billing\/|components\/ui\/failure-banner\.tsx$/;

describe('the billing chunks', () => {
  it('leave the login page as it was: nothing of billing or plans loads with it', () => {
    const loaded = relative(staticGraph(src('app/routes/auth/login.tsx')));
    expect(loaded).toContain('src/components/ui/rules-form.tsx');
    expect(loaded.filter((file) => BILLING_MODULE.test(file))).toEqual([]);
  });

  it('load each billing screen lazily, as its own route module', () => {
    expect(modulesOf('/plans')).toEqual(['src/app/shell/app-shell.tsx', 'src/app/routes/billing/plans.tsx']);
    expect(modulesOf('/billing')).toEqual([
      'src/app/shell/app-shell.tsx',
      'src/app/routes/billing/add-payment.tsx',
    ]);
    expect(modulesOf('/settings/billing/invoices')).toEqual([
      'src/app/shell/app-shell.tsx',
      'src/app/routes/settings/layout.tsx',
      'src/app/routes/settings/invoices.tsx',
    ]);
    // The shell holds the payment-method guard and the trial notice, not the screens.
    const shell = relative(staticGraph(src('app/shell/app-shell.tsx')));
    expect(shell).toContain('src/features/billing/components/payment-guard.tsx');
    expect(
      shell.filter((file) => /routes\/billing\/|(plan-cards|payment-form|stripe-card)\.tsx$/.test(file)),
    ).toEqual([]);
  });

  it('load Stripe.js with the payment page alone', () => {
    const stripe = src('features/billing/components/stripe-card.tsx');
    const withStripe = routes
      .filter((route) => [...staticGraph(...route.modules)].includes(stripe))
      .map((route) => route.pattern);
    expect(withStripe).toEqual(['/billing']);
  });
});
