import { billingMessages, isUsZipCode, NO_STATE } from '@berth/core';
import type { ReactNode } from 'react';
import { Form, resolverOf, SubmitRow, useRulesForm } from '../../../components/ui/form.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import type { PaymentDetails } from '../api/use-billing.ts';

export interface PaymentFormValues extends PaymentDetails {
  /** The card token (BERTH_PAYMENTS=local: typed, such as tok_visa; stripe: made by Stripe.js on submit). */
  cardToken: string;
}

const MAX = { text: 200, zipcode: 20, country: 2, token: 200 } as const;

/**
 * spec 1 §5 payment form: zipcode, name on card, street address, city and country are required; in the
 * US the state must not be N/A and the zip code must be 5 digits or 5+4. `needsToken`: the card token
 * is a field of the form (the local provider) rather than made by the card provider's script.
 */
export function paymentProblems(values: PaymentFormValues, needsToken: boolean) {
  const problems: Partial<Record<keyof PaymentFormValues, string>> = {};
  const required: [keyof PaymentFormValues, string][] = [
    ['nameOnCard', 'Name on card'],
    ['address1', 'Street address'],
    ['city', 'City'],
    ['zipcode', 'Zip code'],
    ['country', 'Country'],
  ];
  for (const [name, label] of required) {
    if (!values[name].trim()) problems[name] = `${label} is required`;
  }
  for (const [name, max] of [
    ['nameOnCard', MAX.text],
    ['address1', MAX.text],
    ['address2', MAX.text],
    ['city', MAX.text],
    ['state', MAX.text],
    ['zipcode', MAX.zipcode],
    ['country', MAX.country],
    ['cardToken', MAX.token],
  ] as const) {
    if (values[name].length > max) problems[name] = `Must be at most ${max} characters`;
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
      <TextField label="Name on card" autoComplete="cc-name" {...form.field('nameOnCard')} />
      {needsToken ? (
        <TextField
          label="Card token"
          autoComplete="off"
          spellCheck={false}
          placeholder="tok_visa"
          hint="Payments run locally (BERTH_PAYMENTS=local): use a card provider test token such as tok_visa or tok_mastercard."
          {...form.field('cardToken')}
        />
      ) : (
        card
      )}
      <TextField label="Street address" autoComplete="address-line1" {...form.field('address1')} />
      <TextField label="Street address line 2" autoComplete="address-line2" {...form.field('address2')} />
      <TextField label="City" autoComplete="address-level2" {...form.field('city')} />
      <TextField
        label="State / province / district"
        autoComplete="address-level1"
        hint={`${NO_STATE} outside the US when there is none.`}
        {...form.field('state')}
      />
      <TextField label="Zip code" autoComplete="postal-code" {...form.field('zipcode')} />
      <TextField
        label="Country"
        autoComplete="country"
        hint="Two-letter code (US, GB, DE)."
        maxLength={2}
        {...form.field('country')}
      />
      <SubmitRow size="lg">Add payment method</SubmitRow>
    </Form>
  );
}
