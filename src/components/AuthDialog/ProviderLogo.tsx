import type { ProviderMark } from './providerMarks';

/** A provider's logo, 18 px; decorative (the button's text names the provider), so hidden from assistive technology. */
export function ProviderLogo({ mark }: { mark: ProviderMark }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {mark.map(([fill, d]) => (
        <path key={fill} fill={fill} d={d} />
      ))}
    </svg>
  );
}
