import {
  billingMessages,
  isUsZipCode,
  NO_STATE,
  requiredMessage,
  tooLongMessage,
  US_STATES,
} from '@berth/core';
import type { ReactNode } from 'react';
import { Form, resolverOf, SubmitRow, useRulesForm } from '../../../components/ui/form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import type { PaymentDetails } from '../api/billing.ts';
import { countries } from './countries.ts';

export interface PaymentFormValues extends PaymentDetails {
  /** The card token (BERTH_PAYMENTS=local: typed, such as tok_visa; stripe: made by Stripe.js on submit). */
  cardToken: string;
}

/** Each field's label, and the longest value it takes (the server's limits on the billing address). */
const FIELDS: Record<keyof PaymentFormValues, { label: string; max: number }> = {
  nameOnCard: { label: 'Name on card', max: 200 },
  cardToken: { label: 'Card token', max: 200 },
  address1: { label: 'Street address', max: 200 },
  address2: { label: 'Street address line 2', max: 200 },
  city: { label: 'City', max: 200 },
  state: { label: 'State / province / district', max: 200 },
  zipcode: { label: 'Zip code', max: 20 },
  country: { label: 'Country', max: 2 },
};

const REQUIRED = ['nameOnCard', 'address1', 'city', 'zipcode', 'country'] as const;

/**
 * spec 1 §5 payment form: zipcode, name on card, street address, city and country are required (the
 * generic '{label} must not be empty'); in the US the state must not be N/A and the zip code must be 5
 * digits or 5+4. `needsToken`: the card token is a field of the form (the local provider) rather than
 * made by the card provider's script.
 */
export function paymentProblems(values: PaymentFormValues, needsToken: boolean) {
  const problems: Partial<Record<keyof PaymentFormValues, string>> = {};
  for (const name of REQUIRED) {
    if (!values[name].trim()) problems[name] = requiredMessage(FIELDS[name].label);
  }
  for (const [name, { label, max }] of Object.entries(FIELDS) as [
    keyof PaymentFormValues,
    { label: string; max: number },
  ][]) {
    if (values[name].length > max) problems[name] = tooLongMessage(label, max);
  }
  if (needsToken && !values.cardToken.trim()) problems.cardToken = billingMessages.cardTokenRequired;
  if (values.country.trim().toUpperCase() === 'US') {
    const state = values.state.trim();
    if (!state || state === NO_STATE) problems.state = billingMessages.stateRequired;
    if (values.zipcode.trim() && !problems.zipcode && !isUsZipCode(values.zipcode.trim())) {
      problems.zipcode = billingMessages.invalidZip;
    }
  }
  return problems;
}

const trimmed = (values: PaymentFormValues): PaymentFormValues => ({
  nameOnCard: values.nameOnCard.trim(),
  address1: values.address1.trim(),
  address2: values.address2.trim(),
  city: values.city.trim(),
  state: values.state.trim(),
  zipcode: values.zipcode.trim(),
  country: values.country.trim().toUpperCase(),
  cardToken: values.cardToken.trim(),
});

export interface PaymentFormProps {
  /** `local`: the card token is typed; `stripe`: `card` holds the card provider's field. */
  provider: 'local' | 'stripe';
  /** The card provider's own field (Stripe Elements), shown where the card goes. */
  card?: ReactNode;
  onSubmit: (values: PaymentFormValues) => Promise<unknown>;
  /** spec 1 §8: the card provider's message, or 'unknown'. */
  failureMessage: (error: unknown) => string;
}

/** spec 1 §3 payment details form: name on card, the billing address and the card. */
export function PaymentForm({ provider, card, onSubmit, failureMessage }: PaymentFormProps) {
  const needsToken = provider === 'local';
  const form = useRulesForm<PaymentFormValues, PaymentFormValues>(
    resolverOf((values) => paymentProblems(values, needsToken), trimmed),
    {
      defaultValues: {
        nameOnCard: '',
        address1: '',
        address2: '',
        city: '',
        state: NO_STATE,
        zipcode: '',
        country: 'US',
        cardToken: '',
      },
      onSubmit,
      failureMessage,
    },
  );
  return (
    <Form form={form} aria-label="Add payment information">
      <TextField label={FIELDS.nameOnCard.label} autoComplete="cc-name" {...form.field('nameOnCard')} />
      {needsToken ? (
        <TextField
          label={FIELDS.cardToken.label}
          autoComplete="off"
          spellCheck={false}
          placeholder="tok_visa"
          hint="Payments run locally (BERTH_PAYMENTS=local): use a card provider test token such as tok_visa or tok_mastercard."
          {...form.field('cardToken')}
        />
      ) : (
        card
      )}
      <TextField label={FIELDS.address1.label} autoComplete="address-line1" {...form.field('address1')} />
      <TextField label={FIELDS.address2.label} autoComplete="address-line2" {...form.field('address2')} />
      <TextField label={FIELDS.city.label} autoComplete="address-level2" {...form.field('city')} />
      {/* spec 1 §3: the static lists of US states and territories (N/A first) and of countries. */}
      <SelectField
        label={FIELDS.state.label}
        autoComplete="address-level1"
        hint={`${NO_STATE} outside the US.`}
        options={US_STATES.map((state) => ({ value: state.code, label: state.name }))}
        {...form.field('state')}
      />
      <TextField label={FIELDS.zipcode.label} autoComplete="postal-code" {...form.field('zipcode')} />
      <SelectField
        label={FIELDS.country.label}
        autoComplete="country"
        placeholder="Select a country"
        options={countries().map((country) => ({ value: country.code, label: country.name }))}
        {...form.field('country')}
      />
      <SubmitRow size="lg">Add payment method</SubmitRow>
    </Form>
  );
}
