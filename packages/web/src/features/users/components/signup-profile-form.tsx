import { signupSchema } from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { paths } from '../../../lib/paths.ts';

const profileSchema = signupSchema({ fromInvitation: false }).pick({ name: true, company: true });
// spec 1 §5: no company is asked when signing up from an invitation (issue 41: the invitee joins the
// inviting organization, so the step that would create their own is skipped with it).
const invitedProfileSchema = signupSchema({ fromInvitation: true }).pick({ name: true, company: true });

export interface SignupProfile {
  name: string;
  company: string;
}

export interface SignupProfileFormProps {
  defaultValues?: SignupProfile;
  /** Signing up from an invitation: no Company field (no organization is created). */
  fromInvitation?: boolean;
  onNext: (profile: SignupProfile) => void;
}

/** Sign-up step 1 (spec 1 §2): who you are and, unless invited, where you work. */
export function SignupProfileForm({ defaultValues, fromInvitation = false, onNext }: SignupProfileFormProps) {
  const form = useSchemaForm(fromInvitation ? invitedProfileSchema : profileSchema, {
    defaultValues: defaultValues ?? { name: '', company: '' },
    onSubmit: (values) =>
      onNext({ name: values.name, company: fromInvitation ? '' : (values.company ?? '') }),
  });
  const { field } = form;
  return (
    // A plain post without JavaScript (the prerendered page): the server answers that scripts are needed.
    <Form form={form} method="post" action={paths.signup}>
      <TextField label="Name" autoComplete="name" {...field('name')} />
      {fromInvitation ? null : (
        <TextField
          label="Company"
          autoComplete="organization"
          hint="Your organization in Berth takes this name; you can change it in the last step."
          {...field('company')}
        />
      )}
      <SubmitRow size="lg" block>
        Next
      </SubmitRow>
    </Form>
  );
}
