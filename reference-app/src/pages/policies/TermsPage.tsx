import * as styles from '../page.css';

export default function TermsPage() {
  return (
    <article className={styles.prose}>
      <h1>Terms of Service</h1>
      <p>These terms govern your use of Limelight's marketplace and hosting. By creating an account you agree to them.</p>
      <h2>Accounts</h2>
      <p>You are responsible for your credentials and API keys. Keys can be revoked at any time from your profile.</p>
      <h2>Credits and plans</h2>
      <p>Credits are consumed per request. Paid plans renew monthly until cancelled; cancellation at period end keeps access until then.</p>
      <h2>Hosted services</h2>
      <p>You keep the rights to the models you publish. You must have the right to publish them and must not host unlawful content.</p>
    </article>
  );
}
