import { useState } from 'react';
import { useRecordingT } from '../../../i18n/recording-i18n';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { ArrowLeftIcon, ArrowRightIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import type { MediaDevicesState } from '../use-media-stream';
import { CameraBox, DeviceProblem, FilmIcon, LiveVideo } from './media-views';
import { MicLevelMeter } from './mic-level-meter';
import { useFocusOnMount } from './use-focus-on-mount';

export interface DeviceCheckStepProps {
  media: MediaDevicesState;
  onChooseCamera: (deviceId: string) => void;
  onChooseMicrophone: (deviceId: string) => void;
  onBack: () => void;
  onContinue: () => void;
  /** No working camera: answer with videos from the device instead (the recording step offers the choice). */
  onUseFile: () => void;
}

/**
 * Before the first answer: the live camera, a moving microphone level, pickers when there are several
 * devices, and any problem explained with its fix.
 */
export function DeviceCheckStep({ media, onChooseCamera, onChooseMicrophone, onBack, onContinue, onUseFile }: DeviceCheckStepProps) {
  const { t } = useRecordingT();
  const headingRef = useFocusOnMount<HTMLHeadingElement>();
  const ready = media.status === 'ready';
  const [cameraAspect, setCameraAspect] = useState<number | null>(null);

  return (
    <div className="mx-auto w-full max-w-3xl px-4 pt-6 sm:px-6 sm:pt-8">
      <Card padding="none" className="animate-fade-in px-4 py-5 sm:px-8 sm:py-8">
        <h1 ref={headingRef} tabIndex={-1} className="text-xl font-semibold tracking-tight text-gray-950 outline-none sm:text-2xl">
          {t('recording.devices.heading')}
        </h1>
        <p className="mt-1 text-base text-gray-600">{t('recording.devices.intro')}</p>

        {media.status === 'error' && media.problem ? (
          <DeviceProblem
            problem={media.problem}
            onRetry={media.retry}
            className="mt-6"
            action={
              <Button variant="secondary" onClick={onUseFile} leadingIcon={<FilmIcon className="size-5" />} data-testid="use-file-instead">
                {t('recording.file.instead')}
              </Button>
            }
          >
            <p className="mt-4 border-t border-error-200 pt-4 text-sm text-gray-800" data-testid="file-instead-hint">
              {t('recording.file.insteadHint')}
            </p>
          </DeviceProblem>
        ) : (
          <div className="mt-6 grid gap-6 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
            <CameraBox aspect={cameraAspect} className="self-start [--camera-max-h:50dvh] md:[--camera-max-h:60dvh]" data-testid="camera-box">
              <LiveVideo stream={media.stream} label={t('recording.devices.previewLabel')} onAspect={setCameraAspect} />
              {!ready && (
                <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 px-6 text-center text-sm text-gray-100" role="status">
                  <Spinner className="size-6" />
                  {t('recording.devices.starting')}
                </div>
              )}
            </CameraBox>
            <div className="flex flex-col gap-5">
              <div>
                <p className="mb-2 text-sm font-medium text-gray-900">{t('recording.devices.micLevel')}</p>
                <MicLevelMeter stream={media.stream} />
              </div>
              {media.cameras.length > 1 && (
                <DevicePicker
                  id="camera-picker"
                  label={t('recording.devices.camera')}
                  devices={media.cameras}
                  value={media.cameraId}
                  fallbackLabel={(n) => t('recording.devices.cameraN', { n })}
                  onChange={onChooseCamera}
                  disabled={!ready}
                />
              )}
              {media.microphones.length > 1 && (
                <DevicePicker
                  id="microphone-picker"
                  label={t('recording.devices.microphone')}
                  devices={media.microphones}
                  value={media.microphoneId}
                  fallbackLabel={(n) => t('recording.devices.microphoneN', { n })}
                  onChange={onChooseMicrophone}
                  disabled={!ready}
                />
              )}
              <div>
                <p className="text-sm font-medium text-gray-900">{t('recording.devices.tipsTitle')}</p>
                <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-gray-600">
                  <li>{t('recording.devices.tipLight')}</li>
                  <li>{t('recording.devices.tipQuiet')}</li>
                  <li>{t('recording.devices.tipEyes')}</li>
                </ul>
              </div>
            </div>
          </div>
        )}

        <div className="mt-8 flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
          <Button variant="ghost" size="lg" onClick={onBack} leadingIcon={<ArrowLeftIcon className="size-5" />}>
            {t('recording.devices.back')}
          </Button>
          <Button
            size="lg"
            onClick={onContinue}
            disabled={!ready}
            data-testid="start-recording-step"
            trailingIcon={<ArrowRightIcon className="size-5" />}
          >
            {t('recording.devices.continue')}
          </Button>
        </div>
      </Card>
    </div>
  );
}

interface DevicePickerProps {
  id: string;
  label: string;
  devices: MediaDeviceInfo[];
  value: string | null;
  fallbackLabel: (n: number) => string;
  onChange: (deviceId: string) => void;
  disabled?: boolean;
}

function DevicePicker({ id, label, devices, value, fallbackLabel, onChange, disabled }: DevicePickerProps) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-gray-900">
        {label}
      </label>
      <select
        id={id}
        data-testid={id}
        value={value ?? ''}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        className="h-11 w-full rounded-control border border-gray-300 bg-white px-3 text-base text-gray-900 hover:border-gray-400 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-600 disabled:opacity-60 sm:h-10 sm:text-sm"
      >
        {devices.map((device, i) => (
          <option key={device.deviceId} value={device.deviceId}>
            {device.label || fallbackLabel(i + 1)}
          </option>
        ))}
      </select>
    </div>
  );
}
