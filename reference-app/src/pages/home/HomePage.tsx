import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { ModelShowcase } from './ModelShowcase';
import { CollapsibleSection } from '../marketing/CollapsibleSection';
import { GpuFleetTable } from '../marketing/GpuFleetTable';
import { useRepoStats } from '../marketing/useRepoStats';
import { useRevealSection } from '../marketing/useRevealSection';
import { audiences, faq, howItWorksBlurbs, howItWorksSteps, testimonials } from '../../site/content';
import { externalLinks } from '../../site/links';
import * as styles from '../page.css';

// The code viewer and its highlighter load only when a visitor opens "How It Works": they are
// the heaviest part of the page and start collapsed (docs/deploy.md, "Lean first load").
const SampleCode = lazy(() => import('../marketing/SampleCode').then((m) => ({ default: m.SampleCode })));
// Likewise the growth chart (d3 scales and shapes) loads when "Hosting Showcase" is opened.
const GrowthChart = lazy(() => import('./GrowthChart').then((m) => ({ default: m.GrowthChart })));

const HOW_IT_WORKS = 'how-it-works';
const HOSTING_SHOWCASE = 'hosting-showcase';

export default function HomePage() {
  const sections = useRevealSection();
  const repo = useRepoStats();

  return (
    <>
      <section className={styles.hero} aria-labelledby="hero-title">
        <h1 id="hero-title" className={styles.heroTitle}>
          The <span className={styles.accent}>serverless GPU cloud</span> for AI model APIs
        </h1>
        <p className={styles.lead}>
          Discover and run hundreds of AI services, or deploy your own container and scale from zero to thousands of instances with
          per-second pricing.
        </p>
        <div className={styles.buttonRow}>
          <Link className={styles.button()} to="/signinup?page_state=0">
            Sign up for free
          </Link>
        </div>
        <div className={styles.grid}>
          <button type="button" className={styles.cardButton} onClick={() => sections.reveal(HOW_IT_WORKS)}>
            <span className={styles.cardTitle}>Run AI</span>
            <span className={styles.muted}> · Use any model through the web UI or the SDKs.</span>
          </button>
          <button type="button" className={styles.cardButton} onClick={() => sections.reveal(HOSTING_SHOWCASE)}>
            <span className={styles.cardTitle}>Deploy &amp; Host</span>
            <span className={styles.muted}> · Bring your container; we run it serverless.</span>
          </button>
        </div>
      </section>

      <section className={styles.section} aria-labelledby="showcase-title">
        <h2 id="showcase-title" className={styles.sectionTitle}>
          Models for every task
        </h2>
        <ModelShowcase />
      </section>

      <section className={styles.section} aria-labelledby="oss-title">
        <div className={styles.card}>
          <h2 id="oss-title" className={styles.cardTitle}>
            Open source at heart
          </h2>
          <p className={styles.muted}>Our task-API framework is open source. Star it, fork it, ship with it.</p>
          <p>
            <span className={styles.stars} aria-hidden="true">
              ★
            </span>{' '}
            <strong data-testid="repo-stars">{repo.stars}</strong> stars · <strong data-testid="repo-forks">{repo.forks}</strong> forks ·{' '}
            <a href={externalLinks.openSourceRepo} target="_blank" rel="noopener noreferrer">
              View the repository
            </a>
          </p>
        </div>
      </section>

      <CollapsibleSection
        id={HOW_IT_WORKS}
        title="How It Works"
        expanded={sections.isExpanded(HOW_IT_WORKS)}
        onToggle={() => sections.toggle(HOW_IT_WORKS)}
      >
        <ol className={styles.steps}>
          {howItWorksSteps.map((step, index) => (
            <li key={step.title} className={styles.card}>
              <h3 className={styles.cardTitle}>
                {index + 1}. {step.title}
              </h3>
              <p className={styles.muted}>{step.text}</p>
            </li>
          ))}
        </ol>
        <div className={styles.grid}>
          {howItWorksBlurbs.map((blurb) => (
            <div key={blurb.title}>
              <h3>{blurb.title}</h3>
              <p className={styles.muted}>{blurb.text}</p>
            </div>
          ))}
        </div>
        {sections.isExpanded(HOW_IT_WORKS) && (
          <Suspense fallback={null}>
            <SampleCode />
          </Suspense>
        )}
        <div className={styles.buttonRow}>
          <Link className={styles.button()} to="/signinup?page_state=0">
            Start Building Now
          </Link>
        </div>
      </CollapsibleSection>

      <CollapsibleSection
        id={HOSTING_SHOWCASE}
        title="Hosting Showcase"
        expanded={sections.isExpanded(HOSTING_SHOWCASE)}
        onToggle={() => sections.toggle(HOSTING_SHOWCASE)}
      >
        <div className={styles.grid}>
          <div className={styles.card}>
            <span className={styles.ribbon}>IT'S FREE</span>
            <h3 className={styles.cardTitle}>Your GPU Cloud</h3>
            <p className={styles.muted}>Public hosting on the marketplace costs nothing. Publishers earn credits per request.</p>
            {sections.isExpanded(HOSTING_SHOWCASE) && (
              <Suspense fallback={null}>
                <GrowthChart />
              </Suspense>
            )}
          </div>
          {audiences.map((audience) => (
            <div key={audience.title} className={styles.card}>
              <h3 className={styles.cardTitle}>{audience.title}</h3>
              <p className={styles.muted}>{audience.text}</p>
            </div>
          ))}
        </div>
        <div className={styles.buttonRow}>
          <Link className={styles.button({ tone: 'outline' })} to="/hosting">
            Learn more
          </Link>
          <Link className={styles.button()} to="/signinup?page_state=0">
            Start now
          </Link>
        </div>
      </CollapsibleSection>

      <section className={styles.section} aria-labelledby="fleet-title">
        <h2 id="fleet-title" className={styles.sectionTitle}>
          A GPU for every model
        </h2>
        <GpuFleetTable />
      </section>

      <section className={styles.section} aria-labelledby="testimonials-title">
        <h2 id="testimonials-title" className={styles.sectionTitle}>
          What our customers say
        </h2>
        <div className={styles.grid}>
          {testimonials.map((t) => (
            <figure key={t.author} className={styles.card}>
              <p className={styles.stars} aria-label="Rated 5 out of 5 stars">
                ★★★★★
              </p>
              <blockquote>{t.text}</blockquote>
              <figcaption className={styles.muted}>{t.author}</figcaption>
            </figure>
          ))}
        </div>
      </section>

      <section className={styles.section} aria-labelledby="faq-title">
        <h2 id="faq-title" className={styles.sectionTitle}>
          Frequently asked questions
        </h2>
        {faq.map((item) => (
          <details key={item.question} className={styles.card}>
            <summary>{item.question}</summary>
            <p className={styles.muted}>{item.answer}</p>
          </details>
        ))}
      </section>

      <section className={styles.hero} aria-labelledby="member-title">
        <h2 id="member-title" className={styles.sectionTitle}>
          Become a member
        </h2>
        <p className={styles.lead}>Join today and get a sign-up bonus of 500 credits to try any model.</p>
        <div className={styles.buttonRow}>
          <Link className={styles.button()} to="/signinup?page_state=0">
            Become a member
          </Link>
          <a className={styles.button({ tone: 'outline' })} href={`mailto:${externalLinks.contactEmail}`}>
            Contact us
          </a>
        </div>
      </section>
    </>
  );
}
