// The Vue GlobalComponents augmentation, after the opt-in import.
import type {} from '@limelight/widgets/web-components/vue';
import type { GlobalComponents } from 'vue';

type SearchProps = InstanceType<GlobalComponents['lime-service-search']>['$props'];
const props: SearchProps = { apiUrl: 'https://api.example', shortcuts: true };
// @ts-expect-error shortcuts is a boolean
const wrong: SearchProps = { shortcuts: 'yes' };
console.log(props, wrong);
