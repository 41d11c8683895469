// Script-tag bundles (dist/cdn): built by the embeds work.
export default [];
