% SPDX-License-Identifier: Apache-2.0
function test_gateway()
% The gateway's commands, its layout conversion (every class, RGB planes,
% vectors, empty, against Octave's or MATLAB's own transpose) and the image
% handles, on the host device.

% Layout: a call that returns its input unchanged (padarray by 0) for every
% class, 2-D and m x n x 3, odd sizes across the transpose's blocks.
rand('seed', 5);
classes = {'logical', 'uint8', 'uint16', 'int16', 'int32', 'uint32', 'single', 'double'};
for k = 1:numel(classes)
  for sz = {[1 1], [1 7], [9 1], [70 131], [33 65 3]}
    A = cast(rand(sz{1}) * 100, classes{k});
    if strcmp(classes{k}, 'logical')
      A = rand(sz{1}) > 0.5;
    end
    B = openipt.call('padarray', A, [0 0]);
    expect(isequal(B, A) && isa(B, classes{k}), 'round trip %s %s', classes{k}, mat2str(sz{1}));
  end
end

% The conversion itself, both ways, against the transpose of each plane:
% empty, vectors, sizes below, at and across a 64-byte block and a pass of
% 1 KiB, rows that are or are not whole cache lines, and sizes from 16 MiB
% on, which are streamed (docs/matlab.md).
sizes = {[0 3], [1 1], [1 9], [9 1], [7 9], [8 8], [17 33], [64 64], [65 63], [3 3000], [3000 3], ...
         [130 70 3], [1100 700], [2049 2047], [2048 2048], [1080 1920 3]};
narrow = {[4096 4096], [4100 4097]};  % 16 MiB and more in 1- and 2-byte classes too
for k = 1:numel(classes)
  these = sizes;
  if any(strcmp(classes{k}, {'logical', 'uint8', 'uint16', 'int16'}))
    these = [sizes, narrow];
  end
  for q = 1:numel(these)
    sz = these{q};
    if strcmp(classes{k}, 'logical')
      A = rand(sz) > 0.5;
    else
      A = cast(floor(rand(sz) * 100), classes{k});
    end
    planes = cell(1, size(A, 3));
    for p = 1:size(A, 3)
      planes{p} = A(:, :, p).';
    end
    T = cat(3, planes{:});
    for way = {'rows', 'columns'}
      B = openipt_mex('layout', A, way{1});
      expect(isequal(B, T) && isa(B, class(A)), 'layout %s %s %s', way{1}, classes{k}, mat2str(sz));
    end
  end
end

% Orientation: element (i, j) of the result is element (i, j) in OpenIPT's
% row-major terms: cropping a non-square matrix picks the same pixels.
M = reshape(1:35, 5, 7);
expect(isequal(openipt.call('imcrop', M, [2 1 3 2]), M(1:3, 2:5)), 'orientation');
P = cat(3, M, 100 + M, 200 + M);
expect(isequal(openipt.call('imcrop', P, [2 1 3 2]), P(1:3, 2:5, :)), 'RGB planes');
expect(isequal(size(openipt.call('padarray', zeros(0, 3), [0 0])), [0 3]), 'empty');

% Positional arguments, [] for defaults, name-value pairs in any case.
A = magic(6);
expect(isequal(openipt.call('conv2', A, ones(3), [], 'SHAPE', 'same'), conv2_same(A)), 'positional + []');
[J, T] = openipt.call('histeq', uint8(magic(16)));
expect(isa(J, 'uint8') && isequal(size(T), [1 256]), 'two outputs');

% Catalogue, devices, info, explain, device.
ops = openipt.operators();
expect(any(strcmp({ops.name}, 'ipt.conv2')), 'operators');
s = openipt.schema('conv2');
expect(strcmp(s(1).name, 'A') && any(strcmp(s(1).classes, 'double')), 'schema');
d = openipt.devices();
expect(d(1).id == 0 && strcmp(d(1).kind, 'cpu'), 'devices');
i = openipt.info();
expect(i.abi_version >= 1 && numel(i.devices) == numel(d), 'info');
openipt.call('imcomplement', uint8(3));
e = openipt.explain();
expect(strcmp(e.op, 'ipt.imcomplement') && e.device_id == 0, 'explain');
expect(openipt.device('cpu') == 0 && openipt.device() == 0, 'device cpu');
expect(openipt.device('any') == -1, 'device any');

% Handles on the host device: a chain stays in OpenIPT between calls.
G = openipt.gpuImage(uint8(magic(8)), 'cpu');
expect(isequal(size(G), [8 8]) && strcmp(classUnderlying(G), 'uint8'), 'gpuImage info');
H = imcomplement(G);
expect(isa(H, 'openipt.gpuImage'), 'a handle input gives a handle output');
K = medfilt2(H);
expect(isequal(gather(K), medfilt2(imcomplement(uint8(magic(8))))), 'chain result');
% Falling through with a handle gathers it first.
L = magic(4) > 8;
expect(isequal(imdilate(openipt.gpuImage(L, 'cpu'), ones(3), 'full'), imdilate(L, ones(3), 'full')), 'handle fall-through');
id = G.Handle;
clear G;
expect_error(@() openipt_mex('download', id), 'openipt:misuse', 'freed');
end

function C = conv2_same(A)
P = zeros(size(A) + 2);
P(2:end-1, 2:end-1) = A;
C = zeros(size(A));
for i = 1:size(A, 1)
  for j = 1:size(A, 2)
    C(i, j) = sum(sum(P(i:i+2, j:j+2)));
  end
end
end
