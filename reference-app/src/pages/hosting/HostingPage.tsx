import { Link } from 'react-router';
import { GpuFleetTable } from '../marketing/GpuFleetTable';
import * as styles from '../page.css';

const features = [
  { title: 'Cold starts under 250 ms', text: 'Containers are snapshotted and restored on demand.' },
  { title: 'Zero to thousands', text: 'Autoscaling per request with built-in task queueing.' },
  { title: 'Per-second pricing', text: 'Pay for execution time only; idle services cost nothing.' },
  { title: 'Bring your own container', text: 'Any image from Docker Hub or your private registry.' },
  { title: 'Generated docs and SDKs', text: 'Every endpoint gets documentation, a web UI and typed clients.' },
  { title: 'No lock-in', text: 'Standard containers, standard HTTP: move whenever you like.' },
];

const deployments = [
  { title: 'Private', text: 'Dedicated GPUs in our cloud, reachable only with your keys.' },
  { title: 'Hybrid', text: 'Burst from your own cluster into ours when traffic peaks.' },
  { title: 'On-premise', text: 'Run the platform in your data centre with the same tooling.' },
];

export default function HostingPage() {
  return (
    <>
      <section className={styles.hero} aria-labelledby="hosting-title">
        <h1 id="hosting-title" className={styles.heroTitle}>
          Host your models on a <span className={styles.accent}>serverless GPU cloud</span>
        </h1>
        <p className={styles.lead}>Deploy a container, get an autoscaling API with documentation, a web UI and SDKs.</p>
      </section>
      <section className={styles.section} aria-labelledby="features-title">
        <h2 id="features-title" className={styles.sectionTitle}>
          Features
        </h2>
        <div className={styles.grid}>
          {features.map((f) => (
            <div key={f.title} className={styles.card}>
              <h3 className={styles.cardTitle}>{f.title}</h3>
              <p className={styles.muted}>{f.text}</p>
            </div>
          ))}
        </div>
      </section>
      <section className={styles.section} aria-labelledby="deploy-title">
        <h2 id="deploy-title" className={styles.sectionTitle}>
          Private, hybrid or on-premise
        </h2>
        <div className={styles.grid}>
          {deployments.map((d) => (
            <div key={d.title} className={styles.card}>
              <h3 className={styles.cardTitle}>{d.title}</h3>
              <p className={styles.muted}>{d.text}</p>
            </div>
          ))}
        </div>
      </section>
      <section className={styles.section} aria-labelledby="fleet-title">
        <h2 id="fleet-title" className={styles.sectionTitle}>
          GPU fleet
        </h2>
        <GpuFleetTable />
      </section>
      <section className={styles.hero} aria-labelledby="free-title">
        <h2 id="free-title" className={styles.sectionTitle}>
          Public hosting is free
        </h2>
        <p className={styles.lead}>Publish on the marketplace at no cost and earn credits on every request.</p>
        <Link className={styles.button()} to="/signinup?page_state=0">
          Start hosting for free
        </Link>
      </section>
    </>
  );
}
