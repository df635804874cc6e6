import { TypedConfirmation } from '../../../components/ui/typed-confirmation.tsx';

export interface DeprovisionEnvironmentProps {
  handle: string;
  /** Why the caller may not deprovision (action environment.delete), or null: the tooltip. */
  denial: string | null;
  onDeprovision: () => Promise<unknown>;
}

/**
 * spec 2 §2 environment settings: deprovision with the typed handle. The server refuses while the
 * environment still holds resources and names them; that message is shown as it is.
 */
export function DeprovisionEnvironment({ handle, denial, onDeprovision }: DeprovisionEnvironmentProps) {
  return (
    <TypedConfirmation
      title="Deprovision Environment"
      description={
        <>
          Deprovisioning removes the environment for good. Deprovision its apps, databases, backups and drains
          first. Type <strong>{handle}</strong> to confirm.
        </>
      }
      expected={handle}
      fieldLabel="Type the environment handle to confirm"
      denial={denial}
      onConfirm={onDeprovision}
    />
  );
}
