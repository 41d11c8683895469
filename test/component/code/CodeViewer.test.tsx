import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { page } from 'vitest/browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PlatformProvider } from '@limelight/widgets/platform';
import { CodeViewer } from '@limelight/widgets/code-viewer';
import { CODE_THEMES, COPY_CONFIRMATION_MS, HIGHLIGHT_TIME_LIMIT_MS, TOOLTIP_OFFSET_PX } from '../../../src/code/constants';
import { CodeHighlightError } from '../../../src/code/errors';
import { getCodeHighlighter, resetCodeHighlighter } from '../../../src/code/shared';
import { type CodeHighlighter } from '../../../src/code/highlighter';
import { expectNoAxeViolations } from '../../setup/axe';

const JSON_CODE = '{\n  "name": "limelight",\n  "gpus": [16, 24, 80],\n  "public": true\n}';

const rootOf = (el: HTMLElement) => el.closest<HTMLElement>('[data-lime="code-viewer"]')!;
const region = () => screen.getByRole('group', { name: /^Code sample/ });
const never = () => new Promise<CodeHighlighter>(() => {});

async function warmUp() {
  // The highlighter worker remembers its recent answers on the page side, so a block it has
  // highlighted before shows highlighted at once, without the loading state.
  const highlighter = await getCodeHighlighter();
  await highlighter.highlight(JSON_CODE, { language: 'json', theme: 'dark-plus' });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('CodeViewer states (product-rules §4 "Code display")', () => {
  it('product-rules §4: shows "Highlighting code..." while loading, then the highlighted code', async () => {
    resetCodeHighlighter();
    render(<CodeViewer code={JSON_CODE} timeLimitMs={Number.POSITIVE_INFINITY} />);
    const status = screen.getAllByRole('status')[0]!;
    expect(status).toHaveTextContent('Highlighting code...');
    expect(rootOf(region())).toHaveAttribute('data-state', 'loading');
    expect(region()).toHaveAttribute('aria-busy', 'true');
    // The raw code is readable while the grammar loads.
    expect(region()).toHaveTextContent('"limelight"');

    await waitFor(() => expect(rootOf(region())).toHaveAttribute('data-state', 'highlighted'), { timeout: 10_000 });
    expect(status).toHaveTextContent('');
    expect(region().textContent).toBe(JSON_CODE);
    await expectNoAxeViolations(rootOf(region()));
  });

  it('product-rules §5: defaults to json and dark-plus', async () => {
    await warmUp();
    render(<CodeViewer code={JSON_CODE} />);
    const root = rootOf(region());
    expect(root).toHaveAttribute('data-language', 'json');
    expect(root).toHaveAttribute('data-theme', 'dark-plus');
    expect(root).toHaveAttribute('data-state', 'highlighted');
    // dark-plus paints JSON keys #9CDCFE on #1E1E1E.
    const key = within(region()).getByText('"name"');
    expect(getComputedStyle(key).color).toBe('rgb(156, 220, 254)');
    expect(getComputedStyle(root).backgroundColor).toBe('rgb(30, 30, 30)');
  });

  it("CSP style-src 'self': token colours are classes, no element carries a style attribute", async () => {
    await warmUp();
    render(<CodeViewer code={JSON_CODE} />);
    const root = rootOf(region());
    const tokens = region().querySelectorAll('code span span');
    expect(tokens.length).toBeGreaterThan(10);
    for (const token of tokens) expect(token.getAttribute('class')).toBeTruthy();
    expect(root.querySelectorAll('[style]')).toHaveLength(0);
    expect(root.outerHTML).not.toContain('style=');
  });

  it('product-rules §5: every allowed theme highlights, with its own background', async () => {
    const backgrounds = new Set<string>();
    for (const theme of CODE_THEMES) {
      const { unmount } = render(<CodeViewer code={'const a = 1; // note'} language="typescript" theme={theme} timeLimitMs={10_000} />);
      await waitFor(() => expect(rootOf(region())).toHaveAttribute('data-state', 'highlighted'), { timeout: 10_000 });
      backgrounds.add(getComputedStyle(rootOf(region())).backgroundColor);
      expect(rootOf(region()).querySelectorAll('[style]')).toHaveLength(0);
      unmount();
    }
    // github-dark and one-dark-pro etc. differ; light-plus and github-light are both white.
    expect(backgrounds.size).toBeGreaterThanOrEqual(7);
  });

  it('product-rules §4/§5: empty or whitespace-only code shows "No code to display" and is not highlighted', async () => {
    const highlighter = vi.fn(getCodeHighlighter);
    for (const code of ['', '   \n\t  ']) {
      const { unmount, container } = render(<CodeViewer code={code} highlighter={highlighter} />);
      expect(screen.getByText('No code to display')).toBeVisible();
      expect(container.querySelector('[data-lime="code-viewer"]')).toHaveAttribute('data-state', 'empty');
      expect(screen.queryByRole('group')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Copy code' })).toBeNull();
      await expectNoAxeViolations(container);
      unmount();
    }
    expect(highlighter).not.toHaveBeenCalled();
  });

  it('product-rules §5/§8: a language outside the list is refused: "Failed to highlight code" with the raw code', async () => {
    const onError = vi.fn();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    render(<CodeViewer code={'fn main() {}'} language="rust" onError={onError} />);
    expect(screen.getAllByRole('status')[0]).toHaveTextContent('Failed to highlight code');
    expect(rootOf(region())).toHaveAttribute('data-state', 'error');
    expect(region().textContent).toBe('fn main() {}');
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
    const error = onError.mock.calls[0]![0] as CodeHighlightError;
    expect(error).toBeInstanceOf(CodeHighlightError);
    expect(error.code).toBe('unsupported-language');
    expect(error.message).toContain('"rust"');
    await expectNoAxeViolations(rootOf(region()));
  });

  it('product-rules §5: a theme outside the list is refused the same way', async () => {
    const onError = vi.fn();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    render(<CodeViewer code={'{}'} theme="solarized-dark" onError={onError} />);
    expect(rootOf(region())).toHaveAttribute('data-state', 'error');
    await waitFor(() => expect(onError.mock.calls[0]![0].code).toBe('unsupported-theme'));
    expect(onError.mock.calls[0]![0].message).toContain('"solarized-dark"');
  });

  it('product-rules §8: a highlighter failure shows "Failed to highlight code" and the raw code', async () => {
    const failing = async (): Promise<CodeHighlighter> => {
      throw new Error('grammar chunk failed to load');
    };
    const onError = vi.fn();
    render(<CodeViewer code={JSON_CODE} highlighter={failing} onError={onError} />);
    await waitFor(() => expect(rootOf(region())).toHaveAttribute('data-state', 'error'));
    expect(screen.getAllByRole('status')[0]).toHaveTextContent('Failed to highlight code');
    expect(region().textContent).toBe(JSON_CODE);
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
    expect(onError.mock.calls[0]![0]).toMatchObject({ name: 'CodeHighlightError', code: 'failed' });
    expect(onError.mock.calls[0]![0].cause).toBeInstanceOf(Error);
  });

  it('product-rules §9: past the 500 ms highlighter time limit the raw code is shown', async () => {
    const onError = vi.fn();
    const started = performance.now();
    render(<CodeViewer code={JSON_CODE} highlighter={never} onError={onError} />);
    expect(rootOf(region())).toHaveAttribute('data-state', 'loading');
    await waitFor(() => expect(rootOf(region())).toHaveAttribute('data-state', 'error'), { timeout: 3000 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(HIGHLIGHT_TIME_LIMIT_MS - 1);
    expect(region().textContent).toBe(JSON_CODE);
    expect(screen.getAllByRole('status')[0]).toHaveTextContent('Failed to highlight code');
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
    expect(onError.mock.calls[0]![0].code).toBe('timeout');
    // The raw code can still be copied.
    expect(screen.getByRole('button', { name: 'Copy code' })).toBeEnabled();
  });

  it('a highlighter that answers after the time limit replaces the raw-code fallback when it does', async () => {
    const ready = await getCodeHighlighter();
    // A slow worker start on a busy machine: ready only after the 500 ms limit has passed.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = async () => {
      await released;
      return ready;
    };
    const onError = vi.fn();
    render(<CodeViewer code={'{"late": true}'} highlighter={slow} onError={onError} />);
    await waitFor(() => expect(rootOf(region())).toHaveAttribute('data-state', 'error'), { timeout: 3000 });
    expect(screen.getAllByRole('status')[0]).toHaveTextContent('Failed to highlight code');
    release();
    await waitFor(() => expect(rootOf(region())).toHaveAttribute('data-state', 'highlighted'), { timeout: 10_000 });
    expect(screen.getAllByRole('status')[0]).not.toHaveTextContent('Failed to highlight code');
    expect(region().textContent).toBe('{"late": true}');
    // The timeout was reported once; the late answer is not a second failure.
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]![0].code).toBe('timeout');
  });

  it('product-rules §9: default block is 12px with max height 400px', async () => {
    await warmUp();
    render(<CodeViewer code={JSON_CODE} />);
    const style = getComputedStyle(region());
    expect(style.fontSize).toBe('12px');
    expect(style.maxHeight).toBe('400px');
  });

  describe('sample variant (product-rules §9)', () => {
    afterEach(async () => {
      await page.viewport(1280, 800);
    });

    it('is 14px with max height 300px on wide screens, 12px on medium-and-down', async () => {
      await warmUp();
      await page.viewport(1280, 800);
      render(<CodeViewer code={JSON_CODE} variant="sample" />);
      expect(rootOf(region())).toHaveAttribute('data-variant', 'sample');
      expect(getComputedStyle(region()).fontSize).toBe('14px');
      expect(getComputedStyle(region()).maxHeight).toBe('300px');
      await page.viewport(800, 800);
      await waitFor(() => expect(getComputedStyle(region()).fontSize).toBe('12px'));
      expect(getComputedStyle(region()).maxHeight).toBe('300px');
    });
  });
});

describe('copy button (product-rules §4, §8)', () => {
  beforeEach(async () => {
    await warmUp();
  });

  it('product-rules §4: copies with the Clipboard API, says "Copied!" for 2 seconds, then "Copy code"', async () => {
    // user-event puts its own clipboard on navigator at setup(); stub after it.
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    const execCommand = vi.spyOn(document, 'execCommand');
    const onCopy = vi.fn();
    render(<CodeViewer code={JSON_CODE} onCopy={onCopy} />);

    await user.click(screen.getByRole('button', { name: 'Copy code' }));
    const clickedAt = performance.now();
    expect(writeText).toHaveBeenCalledWith(JSON_CODE);
    expect(execCommand).not.toHaveBeenCalled();
    expect(await screen.findByRole('button', { name: 'Copied!' })).toHaveAttribute('data-state', 'copied');
    expect(onCopy).toHaveBeenCalledWith(JSON_CODE);
    await expectNoAxeViolations(rootOf(region()));

    await waitFor(() => expect(screen.getByRole('button', { name: 'Copy code' })).toBeInTheDocument(), {
      timeout: COPY_CONFIRMATION_MS + 1500,
    });
    expect(performance.now() - clickedAt).toBeGreaterThanOrEqual(COPY_CONFIRMATION_MS - 50);
  });

  it('product-rules §8: when the Clipboard API fails it falls back silently to textarea + execCommand("copy")', async () => {
    const user = userEvent.setup();
    const writeText = vi
      .spyOn(navigator.clipboard, 'writeText')
      .mockRejectedValue(new DOMException('Write permission denied.', 'NotAllowedError'));
    const seen: { command?: string; value?: string; insideWidget?: boolean } = {};
    const execCommand = vi.spyOn(document, 'execCommand').mockImplementation((command: string) => {
      const active = document.activeElement as HTMLTextAreaElement;
      seen.command = command;
      seen.value = active.value.slice(active.selectionStart, active.selectionEnd);
      seen.insideWidget = !!active.closest('[data-lime="code-viewer"]');
      return true;
    });
    const errors = vi.spyOn(console, 'error');
    render(<CodeViewer code={JSON_CODE} />);
    const button = screen.getByRole('button', { name: 'Copy code' });

    await user.click(button);
    expect(await screen.findByRole('button', { name: 'Copied!' })).toBe(button);
    expect(writeText).toHaveBeenCalledWith(JSON_CODE);
    expect(execCommand).toHaveBeenCalledWith('copy');
    expect(seen).toEqual({ command: 'copy', value: JSON_CODE, insideWidget: true });
    // The temporary textarea is gone, focus is back on the button, and nothing was reported.
    expect(rootOf(region()).querySelector('textarea')).toBeNull();
    expect(button).toHaveFocus();
    expect(errors).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('product-rules §8: without any Clipboard API the legacy method is used', async () => {
    const user = userEvent.setup();
    const own = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    try {
      const execCommand = vi.spyOn(document, 'execCommand').mockReturnValue(true);
      render(<CodeViewer code="a: 1" language="yaml" />);
      await user.click(screen.getByRole('button', { name: 'Copy code' }));
      expect(execCommand).toHaveBeenCalledWith('copy');
      expect(await screen.findByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    } finally {
      delete (navigator as { clipboard?: unknown }).clipboard;
      if (own) Object.defineProperty(navigator, 'clipboard', own);
    }
  });

  it('product-rules §9: the tooltip sits 10px from the button, inline (no portal) by default', async () => {
    const user = userEvent.setup();
    render(<CodeViewer code={JSON_CODE} />);
    const button = screen.getByRole('button', { name: 'Copy code' });
    await user.hover(button);
    const tooltip = await screen.findByText('Copy code', { selector: 'span[aria-hidden="true"]' });
    expect(rootOf(region()).contains(tooltip)).toBe(true);
    expect(tooltip).not.toHaveAttribute('style');
    const gap = button.getBoundingClientRect().left - tooltip.getBoundingClientRect().right;
    expect(Math.round(gap)).toBe(TOOLTIP_OFFSET_PX);
    await user.unhover(button);
    await waitFor(() => expect(screen.queryByText('Copy code', { selector: 'span[aria-hidden="true"]' })).toBeNull());
  });

  it('product-rules §9: with a portalContainer the tooltip goes there, still 10px away', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    try {
      render(<CodeViewer code={JSON_CODE} portalContainer={container} />);
      const button = screen.getByRole('button', { name: 'Copy code' });
      act(() => button.focus());
      const tooltip = await within(container).findByText('Copy code');
      await waitFor(() => {
        const gap = button.getBoundingClientRect().left - tooltip.getBoundingClientRect().right;
        expect(Math.round(gap)).toBe(TOOLTIP_OFFSET_PX);
      });
    } finally {
      container.remove();
    }
  });
});

describe('strings (ARCHITECTURE rule 2)', () => {
  it('takes its texts from the strings table', async () => {
    render(
      <PlatformProvider strings={{ code: { empty: 'Nothing here', copy: 'Kopieren' } }}>
        <CodeViewer code=" " />
        <CodeViewer code={JSON_CODE} highlighter={never} />
      </PlatformProvider>,
    );
    expect(screen.getByText('Nothing here')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Kopieren' })).toBeInTheDocument();
  });
});

describe('inside a shadow root (embedding as <lime-code-viewer>)', () => {
  it('copies through the legacy method without leaving the shadow root, and keeps the tooltip inside', async () => {
    await warmUp();
    const host = document.createElement('div');
    document.body.append(host);
    const shadow = host.attachShadow({ mode: 'open' });
    const mount = document.createElement('div');
    shadow.append(mount);
    try {
      const user = userEvent.setup();
      vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
      let textareaRoot: Node | undefined;
      vi.spyOn(document, 'execCommand').mockImplementation(() => {
        textareaRoot = shadow.querySelector('textarea')?.getRootNode();
        return true;
      });
      render(<CodeViewer code={JSON_CODE} />, { container: mount });
      const view = within(mount);
      await waitFor(() => expect(mount.querySelector('[data-lime="code-viewer"]')).toHaveAttribute('data-state', 'highlighted'));
      const button = view.getByRole('button', { name: 'Copy code' });
      await user.hover(button);
      const tooltip = await view.findByText('Copy code', { selector: 'span[aria-hidden="true"]' });
      expect(tooltip.getRootNode()).toBe(shadow);
      await user.click(button);
      expect(await view.findByRole('button', { name: 'Copied!' })).toBeInTheDocument();
      expect(textareaRoot).toBe(shadow);
      expect(document.body.querySelector(':scope > textarea')).toBeNull();
      expect(mount.querySelectorAll('[style]')).toHaveLength(0);
    } finally {
      host.remove();
    }
  });
});
