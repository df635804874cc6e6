import { OPERATION_STATUSES } from '@berth/core';
import { Banner, type BannerVariant } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { DenialBanner } from '../../../components/ui/denial-banner.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { FailureBanner } from '../../../components/ui/failure-banner.tsx';
import { type QueryLike, QueryState, Skeleton } from '../../../components/ui/query-state.tsx';
import { FullPageSpinner, Spinner } from '../../../components/ui/spinner.tsx';
import { SupportRequestConfirmation } from '../../../components/ui/support-request.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { DeploymentBadge } from '../../../features/deployments/components/deployment-badge.tsx';
import { EndpointStatusPill } from '../../../features/endpoints/components/endpoint-status-pill.tsx';
import { LogText } from '../../../features/operations/components/operation-logs.tsx';
import { OperationStatusBadge } from '../../../features/operations/components/operation-status-badge.tsx';
import { SimulatedNotice } from '../../../resources/stacks/simulated-notice.tsx';
import { icons } from '../../shell/icons.tsx';
import { GuideSection, Source, Specimen } from './guide-section.tsx';
import { PLAN_LIMIT_ERROR, SAMPLE_DENIAL } from './samples.ts';

const BANNER_VARIANTS: readonly BannerVariant[] = ['info', 'success', 'warning', 'error'];

export function BannersSection() {
  return (
    <GuideSection
      id="banners"
      source={
        <>
          <Source path="components/ui/banner.tsx" />: errors and warnings interrupt (alert), the others are
          announced politely. <Source path="components/ui/denial-banner.tsx" /> for a rule's text,{' '}
          <Source path="components/ui/failure-banner.tsx" /> for a failed request.
        </>
      }
    >
      {BANNER_VARIANTS.map((variant) => (
        <Specimen key={variant} label={`${variant}, with a title and an action`} wide>
          <Banner
            variant={variant}
            title={`A ${variant} banner`}
            actions={
              <Button size="sm" variant="secondary">
                Action
              </Button>
            }
          >
            What happened, and what to do about it.
          </Banner>
        </Specimen>
      ))}
      <Specimen label="Text only" wide>
        <Banner>A banner needs no title when one sentence says it all.</Banner>
      </Specimen>
      <Specimen label="DenialBanner: a rule's text with its plain words" wide>
        <DenialBanner denial={SAMPLE_DENIAL} />
      </Specimen>
      <Specimen label="FailureBanner: the server's message" wide>
        <FailureBanner error={new Error('The name is already taken.')} />
      </Specimen>
      <Specimen label="FailureBanner: a plan's limit, with the way to Plans" wide>
        <FailureBanner error={PLAN_LIMIT_ERROR} />
      </Specimen>
      <Specimen label="SupportRequestConfirmation: a request for the platform's support team" wide>
        <SupportRequestConfirmation
          title="Request a dedicated stack"
          request={{ subject: 'Dedicated stack request', body: 'Region: us-east-1\nWhy: our own network.' }}
          onCancel={() => showToast('Cancelled: nothing was sent.')}
        />
      </Specimen>
    </GuideSection>
  );
}

export function PillsSection() {
  return (
    <GuideSection
      id="pills"
      source={
        <>
          Status pills (<code>.status-pill</code>) say where a resource stands in the spec's words; badges (
          <code>.badge</code>) mark a row. Each status has its component beside its feature.
        </>
      }
    >
      <Specimen label="OperationStatusBadge (features/operations)">
        <div className="guide-row">
          {[...OPERATION_STATUSES, 'unknown'].map((status) => (
            <OperationStatusBadge key={status} status={status} />
          ))}
        </div>
      </Specimen>
      <Specimen label="DeploymentBadge (features/deployments)">
        <div className="guide-row">
          {['queued', 'running', 'succeeded', 'failed', null].map((status) => (
            <DeploymentBadge key={status ?? 'none'} status={status ?? ''} />
          ))}
        </div>
      </Specimen>
      <Specimen label="EndpointStatusPill (features/endpoints)">
        <div className="guide-row">
          {['pending', 'provisioning', 'provisioned', 'deprovisioning', 'provision_failed'].map((status) => (
            <EndpointStatusPill key={status} status={status} />
          ))}
        </div>
      </Specimen>
      <Specimen label="Badges: plain, warning, primary">
        <div className="guide-row">
          <span className="badge">production</span>
          <span className="badge badge-warning">Expired</span>
          <span className="badge badge-primary">Current</span>
        </div>
      </Specimen>
      <Specimen label="SimulatedNotice (resources/stacks)" wide>
        <SimulatedNotice subject="app" />
      </Specimen>
    </GuideSection>
  );
}

const SAMPLE_LOG = [
  'Fetching app image',
  'Starting 2 containers',
  'WARN: container cmd exited with 143, restarting',
  'ERROR: health check failed on port 3000',
  'Done',
].join('\n');

export function LogsSection() {
  return (
    <GuideSection
      id="logs"
      source={
        <>
          <Source path="features/operations/components/operation-logs.tsx" /> (LogText): lines with ERROR are
          red, lines with WARN orange (spec 2 §4).
        </>
      }
    >
      <Specimen label="LogText" wide>
        <LogText text={SAMPLE_LOG} label="Sample operation logs" />
      </Specimen>
    </GuideSection>
  );
}

/** QueryState in each state, from a query result made by hand (the component reads only these fields). */
function sampleQuery(status: QueryLike<string[]>['status'], data?: string[]): QueryLike<string[]> {
  return {
    status,
    data,
    error: status === 'error' ? new Error('The server did not answer.') : null,
    refetch: async () => showToast('Retried: the style guide asks no server.'),
  };
}

export function StatesSection() {
  const queryStates: readonly [string, QueryLike<string[]>][] = [
    ['QueryState: pending', sampleQuery('pending')],
    ['QueryState: error, with Retry', sampleQuery('error')],
    ['QueryState: empty', sampleQuery('success', [])],
    ['QueryState: loaded', sampleQuery('success', ['web', 'worker'])],
  ];
  return (
    <GuideSection
      id="states"
      source={
        <>
          Loading shows skeletons or a spinner (<Source path="components/ui/spinner.tsx" />
          ), a query's states come from <Source path="components/ui/query-state.tsx" />, an empty list from{' '}
          <Source path="components/ui/empty-state.tsx" /> with the spec's text.
        </>
      }
    >
      <Specimen label="Spinner: sm, md, lg">
        <div className="guide-row">
          <Spinner size="sm" label="Loading, small" />
          <Spinner size="md" label="Loading, medium" />
          <Spinner size="lg" label="Loading, large" />
        </div>
      </Specimen>
      <Specimen label="FullPageSpinner (in a box here)">
        <div className="guide-full-page">
          <FullPageSpinner label="Loading the page" />
        </div>
      </Specimen>
      <Specimen label="Skeleton">
        <Skeleton label="Loading the sample" lines={3} />
      </Specimen>
      {queryStates.map(([label, query]) => (
        <Specimen key={label} label={label}>
          <QueryState
            query={query}
            loadingLabel="Loading the sample services"
            isEmpty={(data) => data.length === 0}
            empty={<EmptyState title="No resources found" />}
          >
            {(data) => (
              <ul>
                {data.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            )}
          </QueryState>
        </Specimen>
      ))}
      <Specimen label="EmptyState: title only">
        <EmptyState title="No resources found" />
      </Specimen>
      <Specimen label="EmptyState: icon, description and action">
        <EmptyState
          icon={icons.apps}
          title="No apps yet"
          description="Apps run your code in an environment."
          action={<Button>Create an app</Button>}
        />
      </Specimen>
    </GuideSection>
  );
}

export function ToastsSection() {
  return (
    <GuideSection
      id="toasts"
      source={
        <>
          <Source path="components/ui/toast.tsx" />: <code>showToast(message)</code> from anywhere. A success
          toast leaves after 6 s (not while pointed at or focused); an error stays until dismissed.
        </>
      }
    >
      <Specimen label="Success toast">
        <Button variant="secondary" onClick={() => showToast('Saved. This is a success toast.')}>
          Show a success toast
        </Button>
      </Specimen>
      <Specimen label="Error toast">
        <Button variant="secondary" onClick={() => showToast('This is an error toast.', 'error')}>
          Show an error toast
        </Button>
      </Specimen>
    </GuideSection>
  );
}
