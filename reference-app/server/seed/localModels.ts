import type { ServiceEndpoint } from '@limelight/widgets/api';
import { VOICE_LANGUAGES, VOICE_VARIANTS, MAX_VOICE_TEXT } from '../runtimes/models/voice';
import { MAX_TRANSCRIBE_SECONDS } from '../runtimes/models/transcribe';
import { DEFAULT_TARGETS, WORK_SIDE } from '../runtimes/models/detect';

// The endpoints of the seeded services that run a real model on this server (runtimes/models,
// the server README, "Local models"): they say what the model really does and its limits. The
// local demo runtime still runs them where the model is not installed (its outputs say so).

/**
 * lime-ocr's example: two lines of Open Sans drawn with Jimp (8-colour PNG, 2.6 kB) and what
 * Tesseract 5.3 reads from them; test/integration/models checks a run still answers exactly this.
 */
const OCR_EXAMPLE_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAbgAAABuBAMAAACn9BsGAAAAMFBMVEX///8AAABAQECAgIDAwMAoKCjw8PAQEBDg4OBgYGDQ0NCgoKBwcHBQUFCQkJCwsLAVHcUDAAAACXBIWXMAAAsSAAALEgHS3X78AAAJn0lEQVR42u2bX2gjxx3HxydLluW/I3sry7J11l4hTXMpFmrCpeSC1WwuzfXFm4TQf1C5cNxDm9bbhiNcC5XphSOUgpWUvFahFw4KBSmFhhQCJ5KGvOWUhyRP5eRC82pD21BoIL/fzM7s7K4kay35uAvze9CfnZnfzmdn9vcb7XxFiDZt2rRp06ZNmzZt2rRp06aNkD3z9G0+4xjltt6rPK1+o2uBA4faCVl9jtKFrlX+Z5p/CHYHatJ594h71DDvr9xhcEVZ/aphfrlbjat4+ucPhwP7ZWQ4k1njeOBSVFYvrnStkbCNtx+204Hu3BeAK5VKZ01K96PCHVIehBs/H8X9BQVusWuNGPgkE7QR6o4PznW2dsxw0azmHAZ3MVPBAV4bAC5Fv3Qnwc3Rpmhv1fJWtUuVgyy+2vMDwBF78ahwpXN7eOe9ZZpnWL9g5tcRLvmSeUqBOwHxvLTx25fu3ydPmPfW8WigCaGyD1dX5cXhUSsBdd/Dyfj1n+J9BfY6C6GFgeAKR4ajD1G6SV5zQ2eyBu/pCsAV4cP3/AGFluBYLgYveLZgEwWucCkAd4BvH8JpF2rUULphbw40cstHhitQegtiV+khmicknnm59Hd6A6Nw2nSMAJxNTTvT/rlpGyzc+Zt4cLN0Y8x3z6UcrLuKE4JiEy+o7g4AN0m3o8JZaHW8tO88WpnBIXghUyU7cCtMgbMxCh8u0rofLtMgMxgHr0NwDjUh1jnX+asrxA8XR4gXoNEYXbEeVFK9Fy0t2Z8gXKLTMxv3T+IQKNiVLBssOu+SDl792iKUQ3em6S0/3AJe7EVkWQ83UVLYZgCuiaFxCmb/mPDoBlUjkMTXuibxNDkyHOtbDjsFl1+k3DEK3RkXl0zAYUiGLrKCUBNp05l6AK7NpmJhGdxuKBUn5UTuC5d5NzJcCa3hOrNZJrGXSJn+oy5TQQhu000LWBBq4kX5PAnA8YjQyQUyUE3MStEd2R8BZ5r30Ox/oy+c5Q286cY0FgQnYRK83xNuTYELNZGz0lkLwvEOlxfImBoqf0Sf65J2A/dcoh31jvPBralw5A14+0UlCpxo4kWJf1tW2bDq3eDS6q2Z2TgcDkJvfli4BTYrICcn3qKY9waACzYh4funL9zj9HK3BZPD4XZktOzQ+pBw80ry2aO5QeCCTfrBsfuzmVPhUk662g3OXY6U0+LoCfrMcHDc459guYFXqZMeAC7URK73cUCLRqnhwfG6mGG8agfqvaTAtfgsbGXF0aSzOhxca5XF9SXibPNocjhcqEmPhTfCtVZYoNlWDiecXPd1/IFREcXu0aIvf0SH28GgPA0fayylrwwAF2pCSmd6we1A5oOouq4cjuGCrRtcnH4HXh/DuegejUedlwG4GM1WYAFch6T1LvmZszgAXKiJsnAOwsVovpLEBal3eIc+iT+9v+r/JW6ib3qqdJb9+pa/51aGgiP4GwCDwiyLBY0B4EJN+sDxus+oh1syk6hBCHvVlM9NRCdbEedlEG7cpjSLLj4Dxz8cJImHmvSYlldwOT0HdZ/yHbZ7wqU+gvdfVZVOXlASzZEsabk/mK9Z54+hCdQdvC/w86BCtGnTpk2bNm3atGnTpk2bNm3atGm7i+yP8Mz1ndtyJnxG+KT5SNX/lL+7mKYoVHeJGz2LSF+RDtpP2HPJj7t2RnksOio4sOciwX0yPwQcfwrLdjmOHS5tmiBA8W3NHwpHh4Abp7+G10+F8OR44bCfiU/pTZ8cb3RwIZHfDNMVTsGWV9is+jHAgQBtiRwuYDsKXHgo+VZ/Id97pEcMFzxXfziLLp4/Oly6b4PjgINzoRyP/MY0v+bCTZsQE6c+ME9VscITpvmK6BDX8vz4A/O0v+h3EOPXcY+wyoQzrJCL/F5kBcwmlG1717vNpg28whklnJACjgYO3aYwlF3i7msQ0Nh37PecAwGupcLNYcxbrShFMaZgqsI+HYJspb2ReATlP1XiqoWk6ER47+RZoLmpBpTX+gmvI8LZfA+1DJuZBegGuJ/EPcIL9KlSDWVaB/Tlhx2q3nPXWdFNpejAeLv0AOygJdkuWjPnwdmG6Yi5lnLoD86J7Tbufcdg0A0FTkoBRwA3TfkevL2AiohddI8DR9rwPWk/D9vuiyj0UeHsLBadVIoKl3F/HgRQbdxJtC95cCBnm5UhCyWX3/0rfhLeZ3CmbmXUVCClgMPDJQt8gziF1zzhLIF7NnDjbAyKWYjcu7glrcBN4ewlTcMrGmc797jr38x6CkrWWRzEthAtMM0pbJ+r3m/wRh6clAKOYoWSZd2YZgKzvTPgng3cJPsO15Qnp7YCN4OTFUa5LouSj1bdKDiRwbmw78HhBWzK8Jh4E+41UERJ78TZZFI+BU5KAUcAB+JQdBuXotF72cDEUY+I0Y9/UPMcrzpLG/6iRG2BX5MJIxDay2rs/78Nm+DSO6kt8xvVg5NSwOHgmHJr31XUUA/5pLL9vsELygocPwIb/krR+LfP2lxnepM0V/rBkVkn7XlHRS3Tq3pw1CcDGDJahuBs1LRGg5vC2YYhCa94e6kvHMTlqgcXz/BhvE1wq89ilBfSzupAcKAoOb3P5mcnnxSiihCce8IJvGKud5jd++VV38LZkwKOEK4ihKUJ56QiUuGLjgMfXIWtfxuyaI5+v+refFvGrNAwh+Bc+XxcTAd2p9Ld2kk/3PwIl1+8GyeYQueb96H7DsxL/j1Vd6OlGlB40STdkEU8fmJAgY/PissUgqtx6d0WrUjvEGy37W0fnJQCjg5umqWq1jL75wfMy2mcm9CP6hzLOLYCx6tezBBZxMYy4bDFGn1jlfSA26GvMMa05x0GPsfceXBSCjg6uCRqVlOQdcB9EuZlkqXfVppPplmZxJ1lXpWNkyiawF7GeB3HzvWCi1Hjb6ikuqx4h7Yss3hwUgo4OjjQnd0CpXKddQfnZREu84t0GYPbLQgYAq4NC+ci/Rf8/WHTK5oBCWHSrdOS6TccLWsiRnreAcPw/xKXUsARwsVcAR52Jw6zJiaEeOxDR/TvOs3wI7iMEUWwIoZU0GR/qnpVLpzCcFPsIcpXCPG8Q2bMBx4zCCngCOHg2QY16tx9CvP4Y3CK32Ppfyh9WvYvWSqxI8a6WvRn/FvDhLvsqPeEI+N7pvkN9kl6J/98MAAnpYCjtGuWfypcsb4lCoJVr1gb/qJrUmO3ZQx2Numd9JYC3nHWzJEvrhU2v7Bof3kg6t+C7yJrR/4v2F1kxch/3biL7IpFtGnTpk2bNm3atGnTpk2btqj2OfLGPwx+pdfBAAAAAElFTkSuQmCC';
export const OCR_EXAMPLE: NonNullable<ServiceEndpoint['example']> = {
  input: { image: `data:image/png;base64,${OCR_EXAMPLE_PNG}`, languages: ['en'] },
  result: {
    text: 'Fresh limes: 4 for 2 EUR\nPicked today in Seville',
    languages: ['en'],
    width: 440,
    height: 110,
    lines: [
      {
        text: 'Fresh limes: 4 for 2 EUR',
        bbox: [19, 17, 350, 24],
        confidence: 96,
        words: [
          { text: 'Fresh', bbox: [19, 18, 78, 23], confidence: 96.9 },
          { text: 'limes:', bbox: [110, 18, 79, 23], confidence: 95.9 },
          { text: '4', bbox: [201, 18, 16, 23], confidence: 96.1 },
          { text: 'for', bbox: [228, 17, 38, 24], confidence: 95.4 },
          { text: '2', bbox: [287, 18, 4, 23], confidence: 95.4 },
          { text: 'EUR', bbox: [305, 18, 64, 23], confidence: 96.3 },
        ],
      },
      {
        text: 'Picked today in Seville',
        bbox: [18, 63, 317, 30],
        confidence: 96.5,
        words: [
          { text: 'Picked', bbox: [18, 64, 92, 23], confidence: 96.7 },
          { text: 'today', bbox: [122, 64, 78, 29], confidence: 96.9 },
          { text: 'in', bbox: [211, 64, 21, 23], confidence: 95.7 },
          { text: 'Seville', bbox: [244, 63, 91, 24], confidence: 96.5 },
        ],
      },
    ],
    engine: 'tesseract 5.3.0',
  },
};

export const LOCAL_MODEL_ENDPOINTS: Record<string, ServiceEndpoint[]> = {
  'lime-ocr': [
    {
      method: 'POST',
      path: '/read',
      description: 'Reads printed text (Tesseract 5) and returns it with a box and confidence for every word and line',
      output: { type: 'json' },
      example: OCR_EXAMPLE,
      time_limit_s: 60,
      parameters: [
        {
          name: 'image',
          type: 'file',
          required: true,
          description: 'Scan, screenshot or photo of printed text: PNG, JPEG, GIF, BMP, TIFF or WebP, up to 16 megapixels',
        },
        {
          name: 'languages',
          type: 'array',
          items: { type: 'string' },
          required: false,
          default: ['en'],
          description: 'Languages of the text; English ("en") is installed on this server, others are refused',
        },
      ],
    },
  ],
  'lime-voice': [
    {
      method: 'POST',
      path: '/speak',
      description: 'Speaks the text with eSpeak NG in the chosen language and voice (WAV, 22 050 Hz mono)',
      output: { type: 'audio' },
      time_limit_s: 60,
      parameters: [
        { name: 'text', type: 'string', required: true, description: `Text to speak, up to ${MAX_VOICE_TEXT} characters` },
        {
          name: 'language',
          type: 'string',
          required: false,
          default: 'en-us',
          enum: [...VOICE_LANGUAGES],
          description: 'Language and accent of the speech',
        },
        {
          name: 'voice',
          type: 'string',
          required: false,
          default: 'female-1',
          enum: Object.keys(VOICE_VARIANTS),
          description: 'Voice variant',
        },
        {
          name: 'speed',
          type: 'number',
          required: false,
          default: 1,
          minimum: 0.5,
          maximum: 2,
          description: 'Speaking rate (1: 175 words a minute)',
        },
        { name: 'pitch', type: 'integer', required: false, default: 50, minimum: 0, maximum: 99, description: 'Base pitch' },
      ],
    },
  ],
  'lime-cutout': [
    {
      method: 'POST',
      path: '/remove',
      description: 'Makes the backdrop of a product or portrait shot transparent (colour model, no learned model)',
      output: { type: 'image' },
      time_limit_s: 60,
      parameters: [
        {
          name: 'image',
          type: 'file',
          required: true,
          description: 'Subject on a plain or simple backdrop (studio, wall, sky): PNG, JPEG, GIF, BMP, TIFF or WebP, up to 16 megapixels',
        },
        {
          name: 'output_format',
          type: 'string',
          required: false,
          default: 'png',
          enum: ['png', 'webp'],
          description: 'File format (both keep transparency)',
        },
        {
          name: 'tolerance',
          type: 'integer',
          required: false,
          default: 30,
          minimum: 1,
          maximum: 100,
          description: 'How far a colour may be from the backdrop and still count as backdrop',
        },
        {
          name: 'soft_edges',
          type: 'boolean',
          required: false,
          default: true,
          description: 'Partly transparent edge pixels instead of a hard cut',
        },
      ],
    },
  ],
  'lime-whisper': [
    {
      method: 'POST',
      path: '/transcribe',
      description: 'Transcribes US English speech with CMU PocketSphinx, with a start, end and confidence for every word',
      output: { type: 'text' },
      time_limit_s: 120,
      parameters: [
        {
          name: 'audio',
          type: 'file',
          required: true,
          description: `WAV recording (PCM 8–32 bit or float, any sample rate, mono or stereo) of clearly read US English speech, up to ${MAX_TRANSCRIBE_SECONDS} s; MP3 and other formats are refused. Conversational, noisy or synthetic speech comes back with many words wrong`,
        },
        {
          name: 'language',
          type: 'string',
          required: false,
          default: 'en',
          enum: ['en'],
          description: 'Language of the speech; only US English is installed here',
        },
        { name: 'timestamps', type: 'boolean', required: false, default: true, description: 'Return each word with its start and end' },
      ],
    },
  ],
  'lime-vision': [
    {
      method: 'POST',
      path: '/detect',
      description:
        "Finds people's faces (frontal or in profile) and their eyes with OpenCV's Haar cascades: a box, label and score for each, and the picture with the boxes drawn",
      output: { type: 'json' },
      time_limit_s: 60,
      parameters: [
        {
          name: 'image',
          type: 'file',
          required: true,
          description: `Photo with upright faces: PNG, JPEG, GIF, BMP, TIFF or WebP, up to 16 megapixels (searched at up to ${WORK_SIDE} px on its longer side)`,
        },
        {
          name: 'targets',
          type: 'array',
          items: { type: 'string' },
          required: false,
          default: [...DEFAULT_TARGETS],
          description:
            'What to find: "face" (frontal), "profile_face" (turned about 90°, doubles the time), "eye" (inside the faces found)',
        },
        {
          name: 'min_neighbors',
          type: 'integer',
          required: false,
          default: 3,
          minimum: 1,
          maximum: 20,
          description: 'How many overlapping hits a detection needs: higher gives fewer false boxes and misses more',
        },
        {
          name: 'min_size',
          type: 'integer',
          required: false,
          default: 24,
          minimum: 20,
          maximum: 1024,
          description: 'Smallest face looked for, in pixels of the working image',
        },
      ],
    },
  ],
};
