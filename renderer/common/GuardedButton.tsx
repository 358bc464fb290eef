// A Blueprint Button that is disabled for 2000 ms after each accepted click (spec doc 1 §5).
// As a submit button it submits its form itself (the button is already disabled when the
// browser's own submission would run) and swallows repeats, including the Enter key's implicit
// submission (a click on the default button).
import type { MouseEvent } from 'react';
import { Button, type ButtonProps } from '@blueprintjs/core';
import { useClickGuard } from '../app/clickGuard.ts';

export type GuardedButtonProps = ButtonProps & { type?: 'button' | 'submit' | 'reset' };

export function GuardedButton({ onClick, disabled, type = 'button', ...rest }: GuardedButtonProps) {
  const [guard, blocked] = useClickGuard();
  const handle = (e: MouseEvent<HTMLElement>) => {
    const form = type === 'submit' ? (e.currentTarget as HTMLButtonElement).form : null;
    if (form) e.preventDefault();
    guard(() => {
      onClick?.(e as MouseEvent<HTMLButtonElement>);
      form?.requestSubmit();
    });
  };
  return <Button {...rest} type={type} disabled={disabled || blocked} onClick={handle} />;
}
