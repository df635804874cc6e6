import { useId, useState } from 'react';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';

export interface ChooseEnvironmentProps {
  environments: readonly { id: string; handle: string }[];
  /** Where the chosen environment leads. */
  hrefFor: (environmentId: string) => string;
}

/**
 * spec 3 §2 Create Database without environment_id: the environment is asked for first, then the form
 * opens for it.
 */
export function ChooseEnvironment({ environments, hrefFor }: ChooseEnvironmentProps) {
  const headingId = useId();
  const [chosen, setChosen] = useState(environments[0]?.id ?? '');
  return (
    <section className="form" aria-labelledby={headingId}>
      <h2 id={headingId} className="section-title">
        Choose your Environment
      </h2>
      <SelectField
        label="Environment"
        value={chosen}
        onChange={(event) => setChosen(event.target.value)}
        options={environments.map((environment) => ({ value: environment.id, label: environment.handle }))}
      />
      <div className="submit-row">
        <ButtonLink to={hrefFor(chosen)}>Next</ButtonLink>
      </div>
    </section>
  );
}
