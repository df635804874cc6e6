import { plainDenial } from '@berth/core';
import { useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { ActivityReports } from '../../../features/activity-reports/components/activity-reports-table.tsx';
import { SecurityDashboard } from '../../../features/security/components/security-dashboard.tsx';
import { useEnvironmentName } from '../../../lib/environment-names.tsx';
import { useActionDenial } from '../../../lib/use-action-denial.ts';

/** A tab the caller may not read: the spec's rule, then its plain words, instead of a failing request. */
function Denied({ denial }: { denial: string }) {
  const environmentName = useEnvironmentName();
  return (
    <Banner variant="warning" title={denial}>
      {plainDenial(denial, environmentName)}
    </Banner>
  );
}

function positiveInt(value: string | null): number {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : 1;
}

/** The environment's Security tab (spec 2 §2 /security): its Security & Compliance facts. */
export function EnvironmentSecurityTab({ environmentId }: { environmentId: string }) {
  const denial = useActionDenial('security.read', environmentId);
  if (denial !== null) return <Denied denial={denial} />;
  return <SecurityDashboard environmentId={environmentId} />;
}

/** The environment's Activity Reports tab (spec 2 §2 /activity_reports), paged by `?page=`. */
export function EnvironmentActivityReportsTab({ environmentId }: { environmentId: string }) {
  const [params, setParams] = useSearchParams();
  const readDenial = useActionDenial('activity_report.read', environmentId);
  const requestDenial = useActionDenial('activity_report.create', environmentId);
  if (readDenial !== null) return <Denied denial={readDenial} />;
  return (
    <ActivityReports
      environmentId={environmentId}
      page={positiveInt(params.get('page'))}
      onPageChange={(page) =>
        setParams((current) => {
          const next = new URLSearchParams(current);
          next.set('page', String(page));
          return next;
        })
      }
      requestDenial={requestDenial}
    />
  );
}
