// The web-component typings as a page script uses them: no bundler types, no ambient `*.css`.
import '@limelight/widgets/styles.css';
import '@limelight/widgets/styles/service-search.css';
import '@limelight/widgets/web-components/service-search';
import '@limelight/widgets/web-components/auth-dialog';
import type { HTMLLimeServiceRunnerElement, LimeElementTagNameMap } from '@limelight/widgets/web-components';
import type { Job, ModelDescriptor } from '@limelight/widgets/api';
import type { Session } from '@limelight/widgets/auth';

// The tag map: querySelector and createElement know each element.
document.querySelector('lime-auth-dialog')?.show();
const search = document.createElement('lime-service-search');
search.apiUrl = 'https://api.example';
search.shortcuts = true;
// @ts-expect-error shortcuts is a boolean
search.shortcuts = 'yes';

// Event details per event.
search.addEventListener('select', (event) => {
  const model: ModelDescriptor = event.detail;
  console.log(model.id);
});
search.addEventListener('search', (event) => event.detail.toUpperCase());
document.querySelector('lime-auth-dialog')?.addEventListener('authenticated', (event) => {
  const session: Session = event.detail;
  console.log(session.access_token);
});
const runner = document.querySelector('lime-service-runner') as HTMLLimeServiceRunnerElement;
runner.addEventListener('job', (event) => {
  const job: Job = event.detail;
  // @ts-expect-error a Job is no string
  const text: string = event.detail;
  console.log(job.status, text);
});
// Ordinary DOM events keep their types.
runner.addEventListener('click', (event) => event.clientX);
runner.input = { prompt: 'a ripe lime' };

const tags: (keyof LimeElementTagNameMap)[] = ['lime-service-search', 'lime-credits'];
console.log(tags);
