/** A container profile offered in the picker: its instance class and what the option says. */
export interface ProfileOption {
  instanceClass: string;
  label: string;
}

export interface ProfileSizeFieldsProps {
  /** The form's useId(): the pickers are `${id}-profile` and `${id}-size`. */
  id: string;
  profiles: readonly ProfileOption[];
  profile: string;
  onProfileChange: (profile: string) => void;
  /** The memory limits offered, in MB. */
  sizes: readonly number[];
  sizeMb: number;
  onSizeChange: (sizeMb: number) => void;
  formatSize: (sizeMb: number) => string;
  /** The CPU share of the chosen profile and size, null when it is not known. */
  share: number | null;
}

/** The Container Profile and Memory Limit pickers of a scale form (spec 2 §5), with the CPU share. */
export function ProfileSizeFields({
  id,
  profiles,
  profile,
  onProfileChange,
  sizes,
  sizeMb,
  onSizeChange,
  formatSize,
  share,
}: ProfileSizeFieldsProps) {
  return (
    <>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-profile`}>
          Container Profile
        </label>
        <select
          id={`${id}-profile`}
          className="select"
          value={profile}
          onChange={(event) => onProfileChange(event.target.value)}
        >
          {profiles.map((option) => (
            <option key={option.instanceClass} value={option.instanceClass}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-size`}>
          Memory Limit
        </label>
        <select
          id={`${id}-size`}
          className="select"
          value={sizeMb}
          onChange={(event) => onSizeChange(Number(event.target.value))}
        >
          {sizes.map((mb) => (
            <option key={mb} value={mb}>
              {formatSize(mb)}
            </option>
          ))}
        </select>
        <p className="field-hint">CPU Share: {share === null ? 'Unknown' : share}</p>
      </div>
    </>
  );
}
