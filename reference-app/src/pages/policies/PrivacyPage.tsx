import * as styles from '../page.css';

export default function PrivacyPage() {
  return (
    <article className={styles.prose}>
      <h1>Privacy Policy</h1>
      <p>
        Data sent to our own APIs is not collected, analysed or shared unless you opt in to public usage. Usage statistics are kept for
        billing. Models hosted by third parties process data at those providers.
      </p>
      <h2>What we store</h2>
      <p>Your e-mail address, profile fields you choose to fill in, hashed credentials, API key hashes and billing records.</p>
      <h2>Your rights</h2>
      <p>You can export or delete your data at any time by writing to privacy@limelight.dev.</p>
    </article>
  );
}
