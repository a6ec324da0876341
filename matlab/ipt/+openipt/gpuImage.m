% SPDX-License-Identifier: Apache-2.0
classdef gpuImage < handle
  % OPENIPT.GPUIMAGE  An image held on an OpenIPT device (like gpuArray).
  %   G = openipt.gpuImage(A) uploads A to the first GPU (or to the device
  %   set with openipt.device); openipt.gpuImage(A, 'cuda:1') to that one.
  %   Operators called with a gpuImage input return gpuImage outputs that
  %   stay on the device; gather(G) downloads. The device memory is freed
  %   when the last reference to G goes.
  properties (SetAccess = private)
    Handle  % struct('openipt_image', uint64 id) of the gateway
  end
  methods
    function obj = gpuImage(A, device)
      if isstruct(A) && isfield(A, 'openipt_image')
        obj.Handle = A;
      elseif nargin < 2
        obj.Handle = openipt_mex('upload', A);
      else
        obj.Handle = openipt_mex('upload', A, device);
      end
    end
    function delete(obj)
      if ~isempty(obj.Handle)
        openipt_mex('free', obj.Handle);
      end
    end
    function A = gather(obj)
      A = openipt_mex('download', obj.Handle);
    end
    function c = classUnderlying(obj)
      i = openipt_mex('imageinfo', obj.Handle);
      c = i.class;
    end
    function varargout = size(obj, varargin)
      i = openipt_mex('imageinfo', obj.Handle);
      s = i.size;
      if nargin > 1
        d = varargin{1};
        s = [s, ones(1, max(0, d - numel(s)))];
        varargout = {s(d)};
      elseif nargout <= 1
        varargout = {s};
      else
        s = [s, ones(1, nargout - numel(s))];
        varargout = num2cell(s(1:nargout));
      end
    end
    function id = deviceId(obj)
      i = openipt_mex('imageinfo', obj.Handle);
      id = i.device_id;
    end
    function disp(obj)
      i = openipt_mex('imageinfo', obj.Handle);
      fprintf('  openipt.gpuImage %s %s on device %d\n', ...
              strjoin(arrayfun(@num2str, i.size, 'UniformOutput', false), 'x'), i.class, i.device_id);
    end
  end
end
