import { type ReactNode, useMemo } from 'react';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import {
  type Certificate,
  commonNameLabel,
  dateRangeLabel,
  fingerprintLabel,
  issuerLabel,
  trustStatusLabel,
} from '../../../resources/certificates/certificate.hal.ts';

/** The columns; the common name links to the certificate's page, a path the route builds (lib/paths.ts). */
function certificateColumns(certificateHref: (id: string) => string): DataTableColumn<Certificate>[] {
  return [
    {
      id: 'commonName',
      header: 'Common Name',
      cell: (certificate) => (
        <Link className="cell-strong" to={certificateHref(certificate.id)}>
          {commonNameLabel(certificate)}
        </Link>
      ),
      sortValue: (certificate) => certificate.commonName,
    },
    {
      id: 'id',
      header: 'ID',
      cell: (certificate) => <code>{certificate.id}</code>,
      sortValue: (certificate) => Number(certificate.id) || 0,
    },
    {
      id: 'dateRange',
      header: 'Date Range',
      cell: dateRangeLabel,
      sortValue: (certificate) => certificate.notAfter,
    },
    { id: 'issuer', header: 'Issuer', cell: issuerLabel, sortValue: issuerLabel },
    { id: 'trust', header: 'Trust Status', cell: trustStatusLabel, sortValue: trustStatusLabel },
    {
      id: 'fingerprint',
      header: 'Fingerprint',
      cell: (certificate) => <code>{fingerprintLabel(certificate)}</code>,
    },
  ];
}

const searchText = (certificate: Certificate) => [
  certificate.commonName,
  certificate.id,
  issuerLabel(certificate),
  ...certificate.subjectAlternativeNames,
];

const newestFirst = (a: Certificate, b: Certificate) => (Number(b.id) || 0) - (Number(a.id) || 0);

/** The certificates of an environment (spec 2 §2 environment Certificates tab). */
export function CertificatesTable({
  certificates,
  certificateHref,
  isLoading,
  error,
  toolbar,
  label = 'Certificates',
}: {
  certificates: readonly Certificate[];
  /** The page of a certificate (the route passes `to.certificate`). */
  certificateHref: (id: string) => string;
  isLoading: boolean;
  error: Error | null;
  toolbar?: ReactNode;
  label?: string;
}) {
  const columns = useMemo(() => certificateColumns(certificateHref), [certificateHref]);
  return (
    <DataTable<Certificate>
      label={label}
      rows={certificates}
      columns={columns}
      getRowId={(certificate) => certificate.id}
      searchText={searchText}
      isLoading={isLoading}
      error={error}
      toolbar={toolbar}
      searchPlaceholder="Search certificates"
      defaultSort={newestFirst}
    />
  );
}
