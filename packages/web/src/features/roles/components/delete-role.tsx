import { TypedConfirmation } from '../../../components/ui/typed-confirmation.tsx';

export interface DeleteRoleProps {
  name: string;
  denial: string | null;
  onDelete: () => Promise<unknown>;
}

/** spec 1 §5 Role delete: the typed name must equal the role name. */
export function DeleteRole({ name, denial, onDelete }: DeleteRoleProps) {
  return (
    <TypedConfirmation
      title="Delete Role"
      description={
        <>
          Deleting the role removes its members' access through it and its environment permissions. Type{' '}
          <strong>{name}</strong> to confirm.
        </>
      }
      expected={name}
      fieldLabel="Type the role name to confirm"
      denial={denial}
      onConfirm={onDelete}
    />
  );
}
