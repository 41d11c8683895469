import { act, render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useControllableState } from '../../../src/internal/useControllableState';

// The value / defaultValue / onValueChange trio shared by ServiceSearch (text), PricingCalculator
// (inputs) and AuthDialog (overlay open state).

describe('useControllableState', () => {
  it('uncontrolled: starts at defaultValue, keeps its own state, reports each change once', () => {
    const onChange = vi.fn();
    const { result } = renderHook(() => useControllableState<string | undefined>(undefined, 'a', onChange));
    expect(result.current[0]).toBe('a');
    act(() => result.current[1]('b'));
    expect(result.current[0]).toBe('b');
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenLastCalledWith('b');
    act(() => result.current[1]('b'));
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('controlled: shows value, never changes by itself, asks the owner through onChange', () => {
    const onChange = vi.fn();
    const { result, rerender } = renderHook(({ value }) => useControllableState(value, 'ignored', onChange), {
      initialProps: { value: 'x' },
    });
    act(() => result.current[1]('y'));
    expect(result.current[0]).toBe('x');
    expect(onChange).toHaveBeenLastCalledWith('y');
    rerender({ value: 'y' });
    expect(result.current[0]).toBe('y');
  });

  it('updaters see the latest value, also two in one event', () => {
    const onChange = vi.fn();
    const { result } = renderHook(() => useControllableState<number | undefined>(undefined, 1, onChange));
    act(() => {
      result.current[1]((n) => n! + 1);
      result.current[1]((n) => n! + 1);
    });
    expect(result.current[0]).toBe(3);
    expect(onChange.mock.calls).toEqual([[2], [3]]);
  });

  it('the setter is stable across renders and calls the newest onChange', () => {
    const first = vi.fn();
    const second = vi.fn();
    const { result, rerender } = renderHook(({ onChange }) => useControllableState<string | undefined>(undefined, '', onChange), {
      initialProps: { onChange: first },
    });
    const setter = result.current[1];
    rerender({ onChange: second });
    expect(result.current[1]).toBe(setter);
    act(() => setter('z'));
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledWith('z');
  });

  it('a parent holding the state drives a child that uses it (the usual controlled pair)', async () => {
    function Child(props: { value?: string; onValueChange?: (v: string) => void }) {
      const [value, setValue] = useControllableState(props.value, 'child default', props.onValueChange);
      return <input aria-label="field" value={value} onChange={(event) => setValue(event.target.value)} />;
    }
    function Parent() {
      const [value, setValue] = useState('start');
      return (
        <>
          <Child value={value} onValueChange={(next) => setValue(next.toUpperCase())} />
          <output>{value}</output>
        </>
      );
    }
    render(<Parent />);
    await userEvent.type(screen.getByLabelText('field'), 'x');
    expect(screen.getByLabelText('field')).toHaveValue('STARTX');
    expect(screen.getByRole('status')).toHaveTextContent('STARTX');
  });
});
