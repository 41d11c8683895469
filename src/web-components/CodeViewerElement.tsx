import { useEffect, useState } from 'react';
import { CodeViewer } from '../components/CodeViewer';
import { defineWidget, type WidgetRenderProps } from './defineWidget';
import { codeViewerDefinition } from './definitions/codeViewer';

/** The element's own text, kept in sync: `<lime-code-viewer language="python">print(1)</lime-code-viewer>`. */
function useHostText(host: HTMLElement): string {
  const [text, setText] = useState(() => host.textContent ?? '');
  useEffect(() => {
    const update = () => setText(host.textContent ?? '');
    const observer = new MutationObserver(update);
    observer.observe(host, { childList: true, characterData: true, subtree: true });
    update();
    return () => observer.disconnect();
  }, [host]);
  return text;
}

function CodeViewerWidget({ attributes: a, context }: WidgetRenderProps<typeof codeViewerDefinition>) {
  const hostText = useHostText(context.host);
  const code = a.code ?? hostText.replace(/^\n/, '').replace(/\n\s*$/, '');
  return (
    <CodeViewer
      code={code}
      language={a.language}
      theme={a.codeTheme ?? (a.theme === 'light' ? 'light-plus' : 'dark-plus')}
      variant={a.variant === 'sample' ? 'sample' : 'default'}
      copyable={a.copyable}
      showLanguage={a.showLanguage}
      label={a.label}
      portalContainer={context.portalContainer}
      onCopy={(copied) => context.emit('copied', copied)}
      onError={(error) => context.emit('highlight-error', { code: error.code, message: error.message })}
    />
  );
}

/** The `<lime-code-viewer>` element: `CodeViewer` as a custom element (attributes and events in docs/embeds.md). */
export const LimeCodeViewerElement = /* @__PURE__ */ defineWidget(codeViewerDefinition, CodeViewerWidget);
