import type { ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { DetailList } from '../../../components/ui/detail-list.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { TabNav } from '../../../components/ui/tabs.tsx';
import { useCertificate } from '../../../features/certificates/api/use-certificate.ts';
import {
  type CertificateApp,
  useCertificateApps,
} from '../../../features/certificates/api/use-certificate-apps.ts';
import { useDeleteCertificate } from '../../../features/certificates/api/use-delete-certificate.ts';
import { DeleteCertificate } from '../../../features/certificates/components/delete-certificate.tsx';
import { useEndpoints } from '../../../features/endpoints/api/use-endpoints.ts';
import { EndpointsTable } from '../../../features/endpoints/components/endpoints-table.tsx';
import { paths, to } from '../../../lib/paths.ts';
import { useActionDenials } from '../../../lib/use-action-denial.ts';
import {
  type Certificate,
  commonNameLabel,
  dateRangeLabel,
  issuerLabel,
  trustStatusLabel,
} from '../../../resources/certificates/certificate.hal.ts';
import { PageNotFound } from '../../shell/page-not-found.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';
import { useEndpointRows } from '../endpoints/endpoint-rows.ts';

/** spec 2 §2: /certificates/{id} with /apps, /endpoints and /settings; Apps is the default tab. */
const TABS = [
  ['apps', 'Apps'],
  ['endpoints', 'Endpoints'],
  ['settings', 'Settings'],
] as const;
type CertificateTab = (typeof TABS)[number][0];

function CertificateDetailRoute() {
  const { id = '', tab = 'apps' } = useParams();
  const certificate = useCertificate(id);
  return (
    <QueryState
      query={certificate}
      loadingLabel="Loading certificate"
      errorHeader={<PageHeader title={`Certificate ${id}`} />}
      notFoundBack={{ label: 'Environments', to: paths.environments }}
    >
      {(current) => <CertificatePage certificate={current} tab={tab} />}
    </QueryState>
  );
}

function CertificatePage({ certificate: current, tab }: { certificate: Certificate; tab: string }) {
  const { environments } = useConsoleContext();
  const active = TABS.find(([key]) => key === tab)?.[0] ?? null;
  if (active === null) return <PageNotFound />;
  return (
    <>
      <PageHeader
        title={commonNameLabel(current)}
        description={
          current.environmentId ? (
            <>
              Certificate in{' '}
              <Link to={to.environment(current.environmentId, 'certificates')}>
                {environments.find((item) => item.id === current.environmentId)?.handle ??
                  `environment ${current.environmentId}`}
              </Link>
            </>
          ) : undefined
        }
      />
      <DetailList
        label="Certificate details"
        items={[
          { label: 'ID', value: <code>{current.id}</code> },
          { label: 'Certificate common name', value: commonNameLabel(current) },
          { label: 'Date Range', value: dateRangeLabel(current) },
          { label: 'Issuer', value: issuerLabel(current) },
          { label: 'Trust Status', value: trustStatusLabel(current) },
        ]}
      />
      <TabNav
        label="Certificate tabs"
        tabs={TABS.map(([key, label]) => ({
          label,
          to: key === 'apps' ? to.certificate(current.id) : to.certificate(current.id, key),
        }))}
      />
      <CertificateTabBody tab={active} certificate={current} />
    </>
  );
}

function CertificateTabBody({
  tab,
  certificate,
}: {
  tab: CertificateTab;
  certificate: Certificate;
}): ReactNode {
  switch (tab) {
    case 'apps':
      return <AppsTab certificateId={certificate.id} />;
    case 'endpoints':
      return <EndpointsTab certificateId={certificate.id} />;
    case 'settings':
      return <SettingsTab certificate={certificate} />;
  }
}

const APP_COLUMNS: DataTableColumn<CertificateApp>[] = [
  {
    id: 'handle',
    header: 'Handle',
    cell: (app) => (
      <Link className="cell-strong" to={to.app(app.id)}>
        {app.handle}
      </Link>
    ),
    sortValue: (app) => app.handle,
  },
  { id: 'id', header: 'ID', cell: (app) => <code>{app.id}</code>, sortValue: (app) => Number(app.id) || 0 },
];

const appSearchText = (app: CertificateApp) => [app.handle, app.id];

/** spec 2 §2: the app list scoped to a certificate (the apps whose endpoints use it). */
function AppsTab({ certificateId }: { certificateId: string }) {
  const apps = useCertificateApps(certificateId);
  return (
    <DataTable<CertificateApp>
      label={`Apps using certificate ${certificateId}`}
      rows={apps.data ?? []}
      columns={APP_COLUMNS}
      searchText={appSearchText}
      isLoading={apps.isPending}
      error={apps.error}
      searchPlaceholder="Search apps"
    />
  );
}

/** spec 2 §2: the endpoint list scoped to a certificate, polled every 5 s. */
function EndpointsTab({ certificateId }: { certificateId: string }) {
  const endpoints = useEndpoints({ kind: 'certificate', id: certificateId });
  const rows = useEndpointRows(endpoints.data);
  return (
    <EndpointsTable
      label={`Endpoints using certificate ${certificateId}`}
      rows={rows}
      isLoading={endpoints.isPending}
      error={endpoints.error}
    />
  );
}

function SettingsTab({ certificate }: { certificate: Certificate }) {
  const denialOf = useActionDenials();
  const navigate = useNavigate();
  const endpoints = useEndpoints({ kind: 'certificate', id: certificate.id });
  const remove = useDeleteCertificate(certificate.id);
  return (
    <DeleteCertificate
      commonName={certificate.commonName}
      endpointCount={endpoints.data ? endpoints.data.length : null}
      denial={certificate.environmentId ? denialOf('certificate.delete', certificate.environmentId) : null}
      onDelete={async () => {
        await remove.mutateAsync();
        navigate(
          certificate.environmentId ? to.environment(certificate.environmentId, 'certificates') : '/',
          {
            replace: true,
          },
        );
      }}
    />
  );
}

export { CertificateDetailRoute as Component };
