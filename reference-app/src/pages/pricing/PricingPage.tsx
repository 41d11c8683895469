import { Link } from 'react-router';
import { PlanCards } from '@limelight/widgets/plan-cards';
import { PricingCalculator } from '@limelight/widgets/pricing-calculator';
import { externalLinks } from '../../site/links';
import * as styles from '../page.css';
import { customBlock, earnBlock, gpuCloudSection, plansSection, pricingHero } from './content';
import * as pricing from './pricingPage.css';

/**
 * /Pricing and /pricing (product-rules §2): plan cards, the earn-with-public-hosting block, the
 * customised-solutions block and the private GPU cloud section with the GPU table and the
 * serverless cost calculator.
 */
export default function PricingPage() {
  return (
    <>
      <section className={styles.hero} aria-labelledby="pricing-title">
        <h1 id="pricing-title" className={styles.heroTitle}>
          {pricingHero.title} <span className={styles.accent}>{pricingHero.accent}</span>
        </h1>
        <p className={styles.lead}>{pricingHero.lead}</p>
      </section>

      <section className={styles.section} aria-labelledby="plans-title">
        <h2 id="plans-title" className={styles.sectionTitle}>
          {plansSection.title}
        </h2>
        <p className={pricing.sectionLead}>{plansSection.lead}</p>
        <PlanCards headingLevel={3} />
      </section>

      <div className={styles.section}>
        <div className={pricing.split}>
          <section className={pricing.block} aria-labelledby="earn-title">
            <h2 id="earn-title" className={pricing.blockTitle}>
              {earnBlock.title}
            </h2>
            <p className={pricing.blockText}>{earnBlock.text}</p>
            <ul className={pricing.points}>
              {earnBlock.points.map((point) => (
                <li key={point}>{point}</li>
              ))}
            </ul>
            <Link className={styles.button()} to={earnBlock.ctaRoute}>
              {earnBlock.cta}
            </Link>
          </section>
          <section className={pricing.block} aria-labelledby="custom-title">
            <h2 id="custom-title" className={pricing.blockTitle}>
              {customBlock.title}
            </h2>
            <p className={pricing.blockText}>{customBlock.text}</p>
            <a className={styles.button({ tone: 'outline' })} href={`mailto:${externalLinks.contactEmail}`}>
              {customBlock.cta}
            </a>
          </section>
        </div>
      </div>

      <section className={styles.section} aria-labelledby="gpu-cloud-title">
        <h2 id="gpu-cloud-title" className={styles.sectionTitle}>
          {gpuCloudSection.title}
        </h2>
        <p className={pricing.sectionLead}>{gpuCloudSection.text}</p>
        <PricingCalculator headingLevel={3} />
      </section>
    </>
  );
}
