import { z } from 'zod';
import { requiredText } from '../identity/identity.schema.ts';
import { emailMessages, isValidEmail } from '../identity/identity-rules.ts';
import { MAX_LENGTH } from '../text/limits.ts';

/** spec 1 §3: the static list of US states and territories, with an N/A option first. */
export const US_STATES: readonly { code: string; name: string }[] = [
  { code: 'N/A', name: 'N/A' },
  { code: 'AL', name: 'Alabama' },
  { code: 'AK', name: 'Alaska' },
  { code: 'AS', name: 'American Samoa' },
  { code: 'AZ', name: 'Arizona' },
  { code: 'AR', name: 'Arkansas' },
  { code: 'CA', name: 'California' },
  { code: 'CO', name: 'Colorado' },
  { code: 'CT', name: 'Connecticut' },
  { code: 'DE', name: 'Delaware' },
  { code: 'DC', name: 'District Of Columbia' },
  { code: 'FM', name: 'Federated States Of Micronesia' },
  { code: 'FL', name: 'Florida' },
  { code: 'GA', name: 'Georgia' },
  { code: 'GU', name: 'Guam' },
  { code: 'HI', name: 'Hawaii' },
  { code: 'ID', name: 'Idaho' },
  { code: 'IL', name: 'Illinois' },
  { code: 'IN', name: 'Indiana' },
  { code: 'IA', name: 'Iowa' },
  { code: 'KS', name: 'Kansas' },
  { code: 'KY', name: 'Kentucky' },
  { code: 'LA', name: 'Louisiana' },
  { code: 'ME', name: 'Maine' },
  { code: 'MH', name: 'Marshall Islands' },
  { code: 'MD', name: 'Maryland' },
  { code: 'MA', name: 'Massachusetts' },
  { code: 'MI', name: 'Michigan' },
  { code: 'MN', name: 'Minnesota' },
  { code: 'MS', name: 'Mississippi' },
  { code: 'MO', name: 'Missouri' },
  { code: 'MT', name: 'Montana' },
  { code: 'NE', name: 'Nebraska' },
  { code: 'NV', name: 'Nevada' },
  { code: 'NH', name: 'New Hampshire' },
  { code: 'NJ', name: 'New Jersey' },
  { code: 'NM', name: 'New Mexico' },
  { code: 'NY', name: 'New York' },
  { code: 'NC', name: 'North Carolina' },
  { code: 'ND', name: 'North Dakota' },
  { code: 'MP', name: 'Northern Mariana Islands' },
  { code: 'OH', name: 'Ohio' },
  { code: 'OK', name: 'Oklahoma' },
  { code: 'OR', name: 'Oregon' },
  { code: 'PW', name: 'Palau' },
  { code: 'PA', name: 'Pennsylvania' },
  { code: 'PR', name: 'Puerto Rico' },
  { code: 'RI', name: 'Rhode Island' },
  { code: 'SC', name: 'South Carolina' },
  { code: 'SD', name: 'South Dakota' },
  { code: 'TN', name: 'Tennessee' },
  { code: 'TX', name: 'Texas' },
  { code: 'UT', name: 'Utah' },
  { code: 'VT', name: 'Vermont' },
  { code: 'VI', name: 'Virgin Islands' },
  { code: 'VA', name: 'Virginia' },
  { code: 'WA', name: 'Washington' },
  { code: 'WV', name: 'West Virginia' },
  { code: 'WI', name: 'Wisconsin' },
  { code: 'WY', name: 'Wyoming' },
];

// Optional contact fields: empty is allowed (the server stores it as given).
const optionalText = z.string().trim().max(200, { error: 'Must be at most 200 characters', abort: true });
const optionalEmail = z
  .string()
  .max(MAX_LENGTH.email, { error: emailMessages.invalid, abort: true })
  .trim()
  .refine((value) => value === '' || isValidEmail(value), emailMessages.invalid);

/** spec 1 §5 "Organization settings: name required; securityAlertEmail and opsAlertEmail must be valid emails". */
export const organizationSettingsSchema = z.object({
  name: requiredText('Name', 120),
  address: optionalText,
  city: optionalText,
  state: optionalText,
  zip: optionalText,
  primaryPhone: optionalText,
  emergencyPhone: optionalText,
  securityAlertEmail: optionalEmail,
  opsAlertEmail: optionalEmail,
});

export type OrganizationSettingsInput = z.input<typeof organizationSettingsSchema>;
export type OrganizationSettingsValues = z.output<typeof organizationSettingsSchema>;

/**
 * spec 1 §4: "Account deletion is a request sent to support. It is enabled only when the typed name matches
 * the organization name and no stack has billable cost."
 */
export function accountDeletionAllowed(input: {
  typedName: string;
  organizationName: string;
  billableStacks: number;
}): boolean {
  return (
    input.organizationName !== '' && input.typedName === input.organizationName && input.billableStacks === 0
  );
}
