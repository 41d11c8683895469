import { useLocation } from 'react-router';
import * as styles from '../page.css';

const content: Record<string, { title: string; body: string[] }> = {
  company: {
    title: 'About us',
    body: [
      'Limelight builds the serverless GPU cloud we wanted as model developers: publish a container, get an API, and let the marketplace bring the users.',
      'We are a small team of engineers and researchers who believe open models deserve the same tooling as closed ones.',
    ],
  },
  careers: {
    title: 'Careers',
    body: ['We hire engineers who like GPUs, distributed systems and good developer experience. Write to us with what you would build.'],
  },
  invest: {
    title: 'Invest',
    body: ['We are building the marketplace and cloud for AI model APIs. Investors can reach the founders by e-mail.'],
  },
};

export default function CompanyPage() {
  const key = useLocation().pathname.replace(/^\//, '').toLowerCase();
  const page = content[key] ?? content.company!;
  return (
    <article className={styles.prose}>
      <h1>{page.title}</h1>
      {page.body.map((p) => (
        <p key={p}>{p}</p>
      ))}
      <p>
        <a href="mailto:hello@limelight.dev">hello@limelight.dev</a>
      </p>
    </article>
  );
}
