// <lime-…> in TSX (React 19), after the opt-in import.
import type {} from '@limelight/widgets/web-components/react';
import type { ModelDescriptor } from '@limelight/widgets/api';

export function Embeds() {
  return (
    <>
      <lime-service-search
        api-url="https://api.example"
        placeholder="Search models"
        onselect={(event) => console.log((event.detail satisfies ModelDescriptor).id)}
      />
      <lime-auth-dialog auth-url="https://api.example" auth-key="anon" page-state={1} open />
      <lime-service-runner service-id="lime-diffusion-xl" input='{"prompt":"a lime"}' onjob={(event) => console.log(event.detail.status)} />
      {/* @ts-expect-error shortcuts is a boolean */}
      <lime-service-search shortcuts="yes" />
    </>
  );
}
