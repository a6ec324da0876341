% SPDX-License-Identifier: Apache-2.0
function test_gpu_chain()
% openipt.gpuImage on a GPU: a chain of calls pays one upload and one
% download, and gives the host's results. Skipped without a GPU device.
d = openipt.devices();
gpu = [d(strcmp({d.kind}, 'cuda')), d(~strcmp({d.kind}, 'cpu') & ~strcmp({d.kind}, 'cuda'))];  % CUDA first
if isempty(gpu)
  error('openipt:skip', 'no GPU device (openipt.devices() lists only the host)');
end
dev = gpu(1);
fprintf('on %s (%s)\n', dev.name, dev.kind);
rand('seed', 11);
I = uint8(255 * rand(257, 301));
G = openipt.gpuImage(I, dev.id);
D = im2double(G);
F = imgaussfilt(D, 2);
E = edge(F, 'sobel');
B = imdilate(E, strel('square', 3));
for X = {D, F, E, B}
  expect(isa(X{1}, 'openipt.gpuImage') && deviceId(X{1}) == dev.id, 'an output left the device');
end
e = openipt.explain();
expect(e.device_id == dev.id, 'the last call ran on device %d', e.device_id);
host = imdilate(edge(imgaussfilt(im2double(I), 2), 'sobel'), strel('square', 3));
got = gather(B);
expect(isa(got, 'logical') && nnz(got ~= host) <= 0.001 * numel(host), 'GPU chain differs in %d pixels', nnz(got ~= host));
Fh = imgaussfilt(im2double(I), 2);
expect(max(abs(gather(F)(:) - Fh(:))) <= 1e-10, 'imgaussfilt on the GPU');
end
