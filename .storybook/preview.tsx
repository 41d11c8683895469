import type { Preview } from '@storybook/react-vite';
import { PlatformProvider } from '../src/config';
import { darkValues } from '../src/theme/tokens';

// A toolbar switch between the dark (default, product-rules §1) and light themes; every story renders
// inside a PlatformProvider whose navigate() logs instead of leaving Storybook.
const preview: Preview = {
  globalTypes: {
    theme: {
      description: 'Widget theme',
      toolbar: { title: 'Theme', icon: 'paintbrush', items: ['dark', 'light'], dynamicTitle: true },
    },
  },
  initialGlobals: { theme: 'dark' },
  parameters: {
    backgrounds: { disable: true },
    a11y: { test: 'error' },
  },
  decorators: [
    (Story, context) => {
      const theme = context.globals.theme === 'light' ? 'light' : 'dark';
      document.body.style.background = theme === 'dark' ? darkValues.color.background : '#fbfaff';
      return (
        <PlatformProvider theme={theme} navigate={(path) => console.info('[navigate]', path)}>
          <Story />
        </PlatformProvider>
      );
    },
  ],
};
export default preview;
