import { CodeViewer } from '@limelight/widgets/code-viewer';
import { sampleCode } from '../../site/content';

/** The home page's sample code block (product-rules §2): the code viewer in its sample size. */
export function SampleCode() {
  return <CodeViewer code={sampleCode} language="python" variant="sample" />;
}
