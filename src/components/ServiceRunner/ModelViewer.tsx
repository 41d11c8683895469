import { useEffect, useRef, useState } from 'react';
import { Box3, Color, HemisphereLight, DirectionalLight, PerspectiveCamera, Scene, Vector3, WebGLRenderer, type Object3D } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { Strings } from '../../config/strings';
import * as styles from './ServiceRunner.css';

export interface ModelViewerProps {
  /** A glTF (.glb or .gltf) file. */
  url: string;
  /** Accessible name of the canvas. */
  label: string;
  strings: Strings['runner'];
}

/** Puts the camera where the whole model is in view, whatever its size and origin. */
function frame(model: Object3D, camera: PerspectiveCamera, controls: OrbitControls) {
  const box = new Box3().setFromObject(model);
  const size = box.getSize(new Vector3()).length() || 1;
  const centre = box.getCenter(new Vector3());
  camera.near = size / 100;
  camera.far = size * 100;
  camera.position.copy(centre).add(new Vector3(0.6, 0.45, 1).normalize().multiplyScalar(size * 1.1));
  camera.updateProjectionMatrix();
  controls.target.copy(centre);
  controls.update();
}

/**
 * An interactive view of a 3D result: drag to orbit, wheel or pinch to zoom, arrow keys to turn
 * it when focused. Loaded on demand (RunOutput.tsx) because three.js is large.
 */
export function ModelViewer({ url, label, strings }: ModelViewerProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    let renderer: WebGLRenderer;
    try {
      renderer = new WebGLRenderer({ canvas, antialias: true, alpha: true });
    } catch {
      // No WebGL (old device, blocked GPU): the download link still offers the file.
      setState('error');
      return;
    }
    renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    const scene = new Scene();
    scene.add(new HemisphereLight(new Color('#ffffff'), new Color('#444455'), 2));
    const sun = new DirectionalLight(0xffffff, 1.5);
    sun.position.set(3, 5, 4);
    scene.add(sun);
    const camera = new PerspectiveCamera(40, 1, 0.01, 1000);
    const controls = new OrbitControls(camera, canvas);
    controls.enableDamping = true;
    controls.listenToKeyEvents(canvas);

    const resize = () => {
      const width = canvas.clientWidth || 320;
      const height = canvas.clientHeight || 240;
      renderer.setSize(width, height, false);
      camera.aspect = width / height;
      camera.updateProjectionMatrix();
    };
    const observer = new ResizeObserver(resize);
    observer.observe(canvas);
    resize();

    let disposed = false;
    new GLTFLoader().load(
      url,
      (gltf) => {
        if (disposed) return;
        scene.add(gltf.scene);
        frame(gltf.scene, camera, controls);
        setState('ready');
      },
      undefined,
      () => {
        if (!disposed) setState('error');
      },
    );
    renderer.setAnimationLoop(() => {
      controls.update();
      renderer.render(scene, camera);
    });
    return () => {
      disposed = true;
      renderer.setAnimationLoop(null);
      observer.disconnect();
      controls.dispose();
      renderer.dispose();
    };
  }, [url]);

  return (
    <div className={styles.modelViewer} data-output="model" data-state={state}>
      {/* Focusable so the arrow keys reach the orbit controls; the hint says how to use it. */}
      <canvas ref={canvasRef} className={styles.modelCanvas} role="img" aria-label={label} tabIndex={0} />
      <p className={styles.meta}>{state === 'error' ? strings.output.modelFailed : strings.output.modelHint}</p>
    </div>
  );
}
