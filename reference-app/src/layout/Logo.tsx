/** The Limelight mark: a lime spotlight on the brand's dark purple. */
export function Logo({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <circle cx="32" cy="32" r="30" fill="#1a1229" />
      <path d="M32 8 52 50H12Z" fill="#c6f432" opacity="0.25" />
      <circle cx="32" cy="32" r="12" fill="#c6f432" />
    </svg>
  );
}
