import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { modelImage, servicePath } from '@limelight/widgets/catalogue';
import { usePlatform } from '@limelight/widgets/platform';
import { EndpointsEditor } from './EndpointsEditor';
import { focusFirstInvalid } from './focusFirstInvalid';
import { RadioGroup, TextField } from './fields';
import { RuntimeSection } from './RuntimeSection';
import { MAX_NAME_LENGTH } from './serviceDraft';
import { ServicePreview } from './ServicePreview';
import { UnsavedChangesPrompt } from './UnsavedChangesPrompt';
import { useServiceEditor, type ServiceEditor } from './useServiceEditor';
import * as page from '../page.css';
import * as styles from './publish.css';

// /APIs/edit/{serviceId} and /APIs/edit/new (docs/publishing.md): the owner's editor for one
// service, in sections, with a live preview. The route is signed-in only; the server refuses
// other users (404 for private services, 403 for public ones) and the page says so.

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className={styles.section} aria-labelledby={id}>
      <h2 id={id} className={styles.sectionTitle}>
        {title}
      </h2>
      {children}
    </section>
  );
}

function DetailsSection({ editor }: { editor: ServiceEditor }) {
  const { draft, setDraft, errors } = editor;
  return (
    <Section title="Details">
      <TextField
        label="Name"
        required
        value={draft.displayName}
        onChange={(displayName) => setDraft((d) => ({ ...d, displayName }))}
        hint={`Shown on the card and the page; at most ${MAX_NAME_LENGTH} characters.`}
        error={errors.display_name}
      />
      <TextField
        label="Description"
        multiline
        value={draft.description}
        onChange={(description) => setDraft((d) => ({ ...d, description }))}
        hint="Plain text or simple HTML (paragraphs, lists, links, emphasis). Scripts and styles are removed."
        error={errors.model_desc}
      />
    </Section>
  );
}

function ImageSection({ editor }: { editor: ServiceEditor }) {
  const id = useId();
  const { saved, pendingImage, busy } = editor;
  const current = saved ? modelImage(saved) : null;
  return (
    <Section title="Image">
      {current && <img className={styles.thumbnail} src={current} alt={`Current image of ${saved!.display_name}`} />}
      <div className={styles.field}>
        <label htmlFor={id}>Upload an image</label>
        <input
          id={id}
          className={styles.fileInput}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/bmp"
          disabled={busy !== null}
          aria-describedby={`${id}-hint`}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void editor.chooseImage(file);
          }}
        />
        <p id={`${id}-hint`} className={styles.hint}>
          PNG, JPEG, GIF or BMP up to 5 MB, cropped to the card (660 × 372).{' '}
          {pendingImage ? `${pendingImage.name} is uploaded when you create the service.` : saved ? 'Uploads at once.' : ''}
        </p>
      </div>
    </Section>
  );
}

function CategoriesSection({ editor }: { editor: ServiceEditor }) {
  const { draft, setDraft, errors, reference } = editor;
  const toggle = (id: string, on: boolean) =>
    setDraft((d) => ({ ...d, categories: on ? [...d.categories, id] : d.categories.filter((c) => c !== id) }));
  const categoryError = Object.entries(errors).find(([name]) => name.startsWith('model_category'))?.[1];
  return (
    <Section title="Categories and tags">
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>Categories</legend>
        <div className={styles.choices}>
          {reference.categories.map((c) => (
            <label key={c.id} className={styles.choice}>
              <input
                type="checkbox"
                className={styles.choiceInput}
                checked={draft.categories.includes(c.id)}
                onChange={(e) => toggle(c.id, e.target.checked)}
              />
              {c.title}
            </label>
          ))}
        </div>
        {categoryError && <p className={styles.error}>{categoryError}</p>}
      </fieldset>
      <TextField
        label="Tags"
        value={draft.tags}
        onChange={(tags) => setDraft((d) => ({ ...d, tags }))}
        hint="The models it uses, comma-separated, e.g. stable-diffusion-xl, controlnet. Search finds them."
        error={errors.used_models}
      />
    </Section>
  );
}

const VISIBILITY_OPTIONS = [
  {
    value: 'public',
    label: (
      <span>
        <strong>Public</strong>{' '}
        <span className={styles.hint}>
          In the catalogue and search for everyone; free to host; you earn 30 % of the credits others spend on it.
        </span>
      </span>
    ),
  },
  {
    value: 'private',
    label: (
      <span>
        <strong>Private</strong>{' '}
        <span className={styles.hint}>
          Only you can find and run it. Plans include private services: Free 0, Plus 2, Pro 5, Enterprise unlimited.
        </span>
      </span>
    ),
  },
] as const;

function VisibilitySection({ editor }: { editor: ServiceEditor }) {
  const { draft, setDraft, errors } = editor;
  return (
    <Section title="Visibility">
      <RadioGroup
        label="Visibility"
        name="visibility"
        layout="field"
        value={draft.visibility}
        onChange={(visibility) => setDraft((d) => ({ ...d, visibility }))}
        options={VISIBILITY_OPTIONS}
      />
      {errors.visibility && <p className={styles.error}>{errors.visibility}</p>}
    </Section>
  );
}

function Message({ editor }: { editor: ServiceEditor }) {
  const { message } = editor;
  // Errors interrupt (alert); a confirmation is announced politely.
  return (
    <div role={message?.tone === 'error' ? 'alert' : 'status'}>
      {message && (
        <p className={`${styles.message} ${message.tone === 'success' ? styles.success : styles.failure}`}>
          {message.text}
          {message.upgrade && (
            <>
              {' '}
              <Link to="/account/billing">Upgrade your plan</Link>
            </>
          )}
        </p>
      )}
    </div>
  );
}

export default function EditServicePage() {
  const { serviceId = 'new' } = useParams();
  const editor = useServiceEditor(serviceId);
  const { brand } = usePlatform();
  const { load, saved, isNew } = editor;
  const title = isNew ? 'New service' : `Edit ${saved?.display_name ?? 'service'}`;

  useEffect(() => {
    document.title = `${title} · ${brand}`;
  }, [title, brand]);

  // After a refused save, the first marked field takes the focus (the fields render their
  // aria-invalid in the same commit as the errors, so the effect finds them).
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (editor.refusals > 0) focusFirstInvalid(formRef.current);
  }, [editor.refusals]);

  if (load.state === 'loading')
    return (
      <p className={styles.layout} role="status">
        Loading the service…
      </p>
    );
  if (load.state === 'refused') {
    return (
      <div className={styles.layout}>
        <div>
          <h1>You cannot edit this service</h1>
          <p>{load.message}</p>
          <p>
            <Link to="/account/hosting">Your services</Link>
          </p>
        </div>
      </div>
    );
  }
  return (
    <div className={styles.layout}>
      <form
        ref={formRef}
        className={styles.form}
        aria-labelledby="editor-title"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void editor.save();
        }}
      >
        <div>
          <p>
            <Link to="/account/hosting">← Your services</Link>
          </p>
          <h1 id="editor-title">{title}</h1>
          {saved && (
            <p>
              <Link to={`/APIs/service/${servicePath(saved)}`}>Open the service page</Link>
              {saved.status === 'paused' && <> · paused: runs are refused until you resume it on the hosting page</>}
            </p>
          )}
        </div>
        <DetailsSection editor={editor} />
        <ImageSection editor={editor} />
        <CategoriesSection editor={editor} />
        <Section title="Endpoints">
          <EndpointsEditor editor={editor} />
        </Section>
        <Section title="Runtime">
          <RuntimeSection editor={editor} />
        </Section>
        <VisibilitySection editor={editor} />
        <div className={styles.actions}>
          <button type="submit" className={page.button()} disabled={editor.busy !== null || (!editor.dirty && !isNew)}>
            {editor.busy === 'save' ? 'Saving…' : isNew ? 'Create service' : 'Save changes'}
          </button>
          {editor.dirty && !isNew && <span className={styles.hint}>Unsaved changes</span>}
          <Message editor={editor} />
        </div>
      </form>
      <ServicePreview editor={editor} />
      <UnsavedChangesPrompt dirty={editor.dirtyRef} />
    </div>
  );
}
