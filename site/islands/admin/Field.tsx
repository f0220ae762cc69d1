/** A labelled text input of the dashboard's forms, with the message that says what is wrong. */
import type { InputHTMLAttributes, Ref } from 'react';

interface FieldProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'className' | 'value' | 'onChange'
> {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  /** Added to the wrapper's `field` class (admin-form__amount). */
  className?: string;
  /** What is wrong with this value, shown beneath the input. */
  error?: string;
  /** Id of a message shown elsewhere that is about this field too (the sign-in form's one error). */
  errorId?: string;
  ref?: Ref<HTMLInputElement>;
}

export default function Field({
  id,
  label,
  value,
  onValue,
  className,
  error,
  errorId,
  ref,
  ...input
}: FieldProps) {
  const messageId = error ? `${id}-error` : errorId;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input
        ref={ref}
        id={id}
        className="input"
        {...input}
        value={value}
        onChange={(event) => onValue(event.target.value)}
        aria-describedby={messageId}
        aria-invalid={messageId ? true : undefined}
      />
      {error && (
        <p id={messageId} className="admin-form__error">
          {error}
        </p>
      )}
    </div>
  );
}
