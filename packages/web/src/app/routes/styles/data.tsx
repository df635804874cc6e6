import { useState } from 'react';
import { CopyButton } from '../../../components/ui/copy-button.tsx';
import { CopyableText } from '../../../components/ui/copyable-text.tsx';
import { CredentialsTable } from '../../../components/ui/credentials-table.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import {
  CostTotalRow,
  costColumn,
  dateTimeColumn,
  idColumn,
  linkColumn,
  numberColumn,
  valueColumn,
} from '../../../components/ui/data-table-columns.tsx';
import { DetailList } from '../../../components/ui/detail-list.tsx';
import { QrCode } from '../../../components/ui/qr-code.tsx';
import { SecretUrlCells } from '../../../components/ui/secret-url.tsx';
import { StaticTable } from '../../../components/ui/static-table.tsx';
import { TableWrap } from '../../../components/ui/table-wrap.tsx';
import { TabNav } from '../../../components/ui/tabs.tsx';
import { TotalRow } from '../../../components/ui/total-row.tsx';
import { paths } from '../../../lib/paths.ts';
import { GuideSection, Source, Specimen } from './guide-section.tsx';

interface SampleApp {
  id: string;
  handle: string;
  environment: string;
  services: number;
  createdAt: string;
}

// 30 rows: more than the 25 of a page, so the pager has somewhere to go.
const SAMPLE_APPS: readonly SampleApp[] = Array.from({ length: 30 }, (_, index) => ({
  id: String(index + 1),
  handle: `app-${String(index + 1).padStart(2, '0')}`,
  environment: index % 3 === 0 ? 'production' : 'staging',
  services: (index % 4) + 1,
  createdAt: new Date(Date.UTC(2026, 0, 1 + index, 9, 30)).toISOString(),
}));

const SAMPLE_COSTS: ReadonlyMap<string, number> = new Map(
  SAMPLE_APPS.map((app) => [app.id, app.services * 36.5]),
);

// The rows link back to this section: the guide has no app pages to open.
const sampleColumns = (costs: ReadonlyMap<string, number> | undefined): DataTableColumn<SampleApp>[] => [
  linkColumn<SampleApp>(
    'handle',
    'Handle',
    (app) => app.handle,
    () => '#tables',
  ),
  idColumn<SampleApp>(),
  valueColumn<SampleApp>('environment', 'Environment', (app) => app.environment),
  numberColumn<SampleApp>('services', 'Services', (app) => app.services),
  dateTimeColumn<SampleApp>('created', 'Created', (app) => app.createdAt),
  costColumn<SampleApp>(costs),
];

const SERVER_PAGE_SIZE = 10;

function ServerPagedTable() {
  const [page, setPage] = useState(1);
  const rows = SAMPLE_APPS.slice((page - 1) * SERVER_PAGE_SIZE, page * SERVER_PAGE_SIZE);
  return (
    <DataTable
      label="Sample apps, paged by the server"
      rows={rows}
      columns={sampleColumns(SAMPLE_COSTS)}
      serverPaging={{
        page,
        pageCount: Math.ceil(SAMPLE_APPS.length / SERVER_PAGE_SIZE),
        onPageChange: setPage,
      }}
    />
  );
}

const CREDENTIALS = [
  { id: '1', type: 'postgresql', isDefault: true, host: 'db-1.internal' },
  { id: '2', type: 'replica', isDefault: false, host: 'db-1-replica.internal' },
];

export function TablesSection() {
  const columns = sampleColumns(SAMPLE_COSTS);
  return (
    <GuideSection
      id="tables"
      source={
        <>
          <Source path="components/ui/data-table.tsx" /> for every list (search, sort, page and rows in the
          query string, spec 3 §2), its column kinds in <Source path="components/ui/data-table-columns.tsx" />
          ; <Source path="components/ui/static-table.tsx" /> for a table laid out by hand. The tables of this
          page share one query string, as two lists on one page would.
        </>
      }
    >
      <Specimen label="SecretUrlCells: the password masked until Reveal; Copy copies it unrevealed" wide>
        <TableWrap label="A connection URL (TableWrap: a scroll region only while it scrolls)">
          <table className="table">
            <tbody>
              <tr>
                <SecretUrlCells
                  url="postgresql://aptible:s3cret-sample@db.example.com:5432/db"
                  name="sample URL"
                />
              </tr>
            </tbody>
          </table>
        </TableWrap>
      </Specimen>
      <Specimen label="DataTable: search, sort, page, and a total row" wide>
        <DataTable
          label="Sample apps"
          rows={SAMPLE_APPS}
          columns={columns}
          searchText={(app) => [app.handle, app.environment]}
          footer={<CostTotalRow rows={SAMPLE_APPS} costs={SAMPLE_COSTS} />}
        />
      </Specimen>
      <Specimen label="DataTable, loading" wide>
        <DataTable label="Sample apps (loading)" rows={[]} columns={sampleColumns(undefined)} isLoading />
      </Specimen>
      <Specimen label="DataTable, empty" wide>
        <DataTable label="Sample apps (empty)" rows={[]} columns={columns} />
      </Specimen>
      <Specimen label="DataTable, failed to load" wide>
        <DataTable
          label="Sample apps (failed)"
          rows={[]}
          columns={columns}
          error={new Error('The server did not answer.')}
        />
      </Specimen>
      <Specimen label="DataTable paged by the server (activity)" wide>
        <ServerPagedTable />
      </Specimen>
      <Specimen label="StaticTable, with a TotalRow under it" wide>
        <div className="card">
          <StaticTable caption="Sample costs" columns={['Item', { label: 'Monthly', className: 'numeric' }]}>
            <tr>
              <td>Containers</td>
              <td className="numeric">$73.00</td>
            </tr>
            <tr>
              <td>Disk</td>
              <td className="numeric">$7.30</td>
            </tr>
          </StaticTable>
          <TotalRow label="Total" value="$80.30" />
        </div>
      </Specimen>
      <Specimen label="CredentialsTable" wide>
        <CredentialsTable
          credentials={CREDENTIALS}
          caption="Sample credentials"
          columns={['Type', 'Host']}
          cells={(credential) => <td>{credential.host}</td>}
        />
      </Specimen>
      <Specimen label="CredentialsTable, none" wide>
        <CredentialsTable credentials={[]} caption="No credentials" columns={['Type']} cells={() => null} />
      </Specimen>
    </GuideSection>
  );
}

export function DetailBoxesSection() {
  return (
    <GuideSection
      id="detail-boxes"
      source={
        <>
          <Source path="components/ui/detail-list.tsx" />: a resource's fields, term then value, as many to a
          row as fit.
        </>
      }
    >
      <Specimen label="DetailList" wide>
        <DetailList
          label="Sample app details"
          items={[
            { label: 'Handle', value: 'web' },
            { label: 'Environment', value: 'production' },
            { label: 'Git Remote', value: <code>git@example.com:web.git</code> },
            { label: 'Created', value: '2026-01-01 09:30' },
          ]}
        />
      </Specimen>
    </GuideSection>
  );
}

export function SecretsSection() {
  return (
    <GuideSection
      id="secrets"
      source={
        <>
          <Source path="components/ui/copyable-text.tsx" /> shows a command or a token as it is, with{' '}
          <Source path="components/ui/copy-button.tsx" /> (Copied! for 1.5 s).
        </>
      }
    >
      <Specimen label="CopyableText: a command" wide>
        <CopyableText text="git push berth main" label="the push command" />
      </Specimen>
      <Specimen label="CopyableText: a secret (wraps, never scrolls)" wide>
        <CopyableText
          text="brt_sample_0f3c9a7e5d1b4c2a8e6f0d9b7a5c3e1f2d4b6a8c0e9f7d5b3a1c2e4f6a8b0d9c7e5"
          label="the sample token"
          secret
        />
      </Specimen>
      <Specimen label="CopyButton alone">
        <CopyButton text="sample-value" label="Copy the sample value" />
      </Specimen>
    </GuideSection>
  );
}

export function NavigationSection() {
  return (
    <GuideSection
      id="navigation"
      source={
        <>
          The menu is the sidebar beside this page (<Source path="app/shell/sidebar.tsx" />
          ). A resource's tabs are <Source path="components/ui/tabs.tsx" />: each tab is its own URL, the
          current one underlined.
        </>
      }
    >
      <Specimen label="TabNav (the first tab is this page)" wide>
        <TabNav
          label="Sample tabs"
          tabs={[
            { label: 'Style guide', to: paths.styles },
            { label: 'Activity', to: paths.activity },
            { label: 'API reference', to: paths.apiReference },
          ]}
        />
      </Specimen>
    </GuideSection>
  );
}

export function QrSection() {
  return (
    <GuideSection
      id="qr"
      source={
        <>
          <Source path="components/ui/qr-code.tsx" />: a QR code drawn in the browser (two-factor setup uses
          it for the authenticator's secret).
        </>
      }
    >
      <Specimen label="QrCode">
        <QrCode
          value="otpauth://totp/Berth:style-guide@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Berth"
          alt="Sample QR code"
          size={160}
        />
      </Specimen>
    </GuideSection>
  );
}
