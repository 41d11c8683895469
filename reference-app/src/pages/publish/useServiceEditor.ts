import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { usePlatformClients } from '@limelight/widgets';
import type { ApiFailure, HealthCheck, ManagedService, ModelCategory, PricingServer, RegistryCredential } from '@limelight/widgets/api';
import { useCatalogue } from '@limelight/widgets/catalogue';
import { draftOf, emptyDraft, endpointDraft, errorMap, isDirty, toServiceInput, type ServiceDraft } from './serviceDraft';

// State and actions of /APIs/edit/{id} (docs/publishing.md); EditServicePage renders them.
// `serviceId` "new" edits a service that the first save creates.

export type EditorLoad =
  | { state: 'loading' }
  | { state: 'ready' }
  /** Not the caller's: someone else's private service (404) or public one (403). */
  | { state: 'refused'; message: string };

export interface EditorMessage {
  tone: 'success' | 'error';
  text: string;
  /** The plan limit was hit (402): the page links to billing. */
  upgrade?: boolean;
}

export interface ImportReport {
  imported: number;
  unsupported: string[];
}

export interface ReferenceData {
  categories: ModelCategory[];
  gpus: PricingServer[];
  credentials: RegistryCredential[];
  ownerName: string | null;
}

const NEW = 'new';

export function useServiceEditor(serviceId: string) {
  const clients = usePlatformClients();
  const { services } = clients;
  const catalogue = useCatalogue();
  const navigate = useNavigate();
  const isNew = serviceId === NEW;
  const [load, setLoad] = useState<EditorLoad>(isNew ? { state: 'ready' } : { state: 'loading' });
  const [saved, setSaved] = useState<ManagedService | null>(null);
  const [baseline, setBaseline] = useState<ServiceDraft>(emptyDraft);
  const [draft, setDraft] = useState<ServiceDraft>(emptyDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  /** Counts saves refused for their fields: the page moves focus to the first marked field after each. */
  const [refusals, setRefusals] = useState(0);
  const [message, setMessage] = useState<EditorMessage | null>(null);
  const [busy, setBusy] = useState<'save' | 'import' | 'health' | 'image' | null>(null);
  const [importReport, setImportReport] = useState<ImportReport | null>(null);
  const [health, setHealth] = useState<HealthCheck | null>(null);
  const [pendingImage, setPendingImage] = useState<File | null>(null);
  const [reference, setReference] = useState<ReferenceData>({ categories: [], gpus: [], credentials: [], ownerName: null });

  const adopt = useCallback((service: ManagedService) => {
    const loaded = draftOf(service);
    setSaved(service);
    setBaseline(loaded);
    setDraft(loaded);
    setHealth(service.health);
  }, []);

  useEffect(() => {
    if (isNew) {
      setSaved(null);
      setBaseline(emptyDraft());
      setDraft(emptyDraft());
      setLoad({ state: 'ready' });
      return;
    }
    let live = true;
    setLoad({ state: 'loading' });
    void services.get(serviceId).then((result) => {
      if (!live) return;
      if (result.ok) {
        adopt(result.data);
        setLoad({ state: 'ready' });
      } else {
        setLoad({
          state: 'refused',
          message:
            result.status === 403
              ? 'Only the owner of this service can edit it.'
              : result.status === 404
                ? 'There is no service with this id among yours.'
                : result.error,
        });
      }
    });
    return () => {
      live = false;
    };
  }, [services, serviceId, isNew, adopt]);

  useEffect(() => {
    const { modelManagement, profile } = clients;
    void Promise.all([modelManagement.modelCategories(), modelManagement.pricingServers(), profile.getPatToken(), profile.profile()]).then(
      ([categories, gpus, credentials, me]) =>
        setReference({
          categories: categories.ok ? categories.data : [],
          gpus: gpus.ok ? gpus.data : [],
          credentials: credentials.ok ? credentials.data : [],
          ownerName: me.ok ? me.data.full_name || me.data.email : null,
        }),
    );
  }, [clients]);

  const dirty = isDirty(draft, baseline) || pendingImage !== null;
  // The navigation blocker reads this at the moment of leaving, after a save has cleared it.
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;

  const fail = useCallback((result: ApiFailure) => {
    setErrors(errorMap(result.fieldErrors));
    if (result.fieldErrors?.length) setRefusals((n) => n + 1);
    setMessage({
      tone: 'error',
      text: result.status === 422 && result.fieldErrors?.length ? 'Some fields need attention; they are marked below.' : result.error,
      upgrade: result.status === 402,
    });
  }, []);

  const save = useCallback(async () => {
    const { input, errors: local } = toServiceInput(draft);
    setMessage(null);
    if (local.length) {
      setErrors(errorMap(local));
      setRefusals((n) => n + 1);
      setMessage({ tone: 'error', text: 'Some fields need attention; they are marked below.' });
      return;
    }
    setBusy('save');
    let result = saved ? await services.update(saved.id, input) : await services.create(input);
    if (result.ok && pendingImage) {
      const withImage = await services.uploadImage(result.data.id, pendingImage);
      if (withImage.ok) result = withImage;
      else setMessage({ tone: 'error', text: `Saved, but the image was refused: ${withImage.error}` });
    }
    setBusy(null);
    if (!result.ok) return fail(result);
    setErrors({});
    setPendingImage(null);
    adopt(result.data);
    dirtyRef.current = false;
    // The header search and catalogue pages show the change without a reload.
    void catalogue.refresh().catch(() => {});
    setMessage((m) => m ?? { tone: 'success', text: saved ? 'Saved.' : 'Service created.' });
    if (!saved) navigate(`/APIs/edit/${encodeURIComponent(result.data.id)}`, { replace: true });
  }, [draft, saved, services, pendingImage, fail, adopt, catalogue, navigate]);

  const importEndpoints = useCallback(
    async (source: { url?: string; document?: unknown }) => {
      setBusy('import');
      setMessage(null);
      const result = await services.importOpenApi(saved?.id ?? null, source);
      setBusy(null);
      if (!result.ok) {
        setImportReport(null);
        setMessage({ tone: 'error', text: `Import failed: ${result.error}` });
        return;
      }
      setDraft((d) => ({ ...d, endpoints: result.data.endpoints.map(endpointDraft) }));
      setImportReport({ imported: result.data.endpoints.length, unsupported: result.data.unsupported });
    },
    [services, saved],
  );

  const checkHealth = useCallback(async () => {
    if (!saved) return;
    setBusy('health');
    const result = await services.healthCheck(saved.id);
    setBusy(null);
    if (result.ok) setHealth(result.data);
    else setMessage({ tone: 'error', text: result.error });
  }, [services, saved]);

  const chooseImage = useCallback(
    async (file: File) => {
      if (!saved) return setPendingImage(file);
      setBusy('image');
      const result = await services.uploadImage(saved.id, file);
      setBusy(null);
      if (!result.ok) return setMessage({ tone: 'error', text: `The image was refused: ${result.error}` });
      setSaved(result.data);
      void catalogue.refresh().catch(() => {});
    },
    [services, saved, catalogue],
  );

  return {
    isNew,
    load,
    saved,
    draft,
    setDraft,
    errors,
    refusals,
    message,
    dismissMessage: () => setMessage(null),
    busy,
    dirty,
    dirtyRef,
    importReport,
    health,
    pendingImage,
    reference,
    save,
    importEndpoints,
    checkHealth,
    chooseImage,
  };
}

export type ServiceEditor = ReturnType<typeof useServiceEditor>;
