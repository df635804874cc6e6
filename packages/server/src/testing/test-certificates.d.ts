import { type KeyObject } from 'node:crypto';
export interface NameFields {
  commonName: string;
  organization?: string;
  country?: string;
  state?: string;
  locality?: string;
}
export interface TestCertificate {
  certificatePem: string;
  privateKeyPem: string;
  privateKey: KeyObject;
  subject: NameFields;
}
/**
 * A certificate for `subject` valid from `notBefore` for `days` days, with DNS subject alternative
 * names; self-signed unless `issuer` (another test certificate) is given.
 */
export declare function makeCertificate(options?: {
  subject?: Partial<NameFields>;
  altNames?: string[];
  keyType?: 'ec' | 'rsa';
  notBefore?: Date;
  days?: number;
  issuer?: TestCertificate;
}): TestCertificate;
